"""Checks for explicit-8 (predict_contraction): run and compiled here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

DOCS = f"See {checks.DOCS}/notebooks/explicit-sharding.html"

PLAIN = lambda x, w: x @ w
COPIES = lambda x, w: jnp.matmul(x, w, out_sharding=P())
SPLIT = lambda x, w: jnp.matmul(x, w, out_sharding=P("data"))
GATHERED = lambda x, w: jax.reshard(x, P()) @ jax.reshard(w, P())


def inputs():
    """x and w as described, on a 1-D Explicit mesh over every device."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P(None, "data")))
    w = jax.device_put(np.ones((16, 4), np.float32), NamedSharding(mesh, P("data", None)))
    return mesh, x, w


def test_a_bare_matmul_raises_and_out_sharding_decides_the_type(predictions):
    with checks.judging(predictions) as judge:
        raises = judge.guess("PLAIN_RAISES", what="whether PLAIN raises")
        types = {name: judge.guess(name, what=f"the type of {name.removeprefix('TYPE_OF_')}")
                 for name in ("TYPE_OF_COPIES", "TYPE_OF_SPLIT")}
        mesh, x, w = inputs()
        with jax.set_mesh(mesh):
            try:
                outcome = f"returned {jax.typeof(jax.jit(PLAIN)(x, w))}"
            except Exception as error:  # noqa: BLE001 - which error it is goes into the message
                outcome = f"raised {type(error).__name__}"
            judge.compare(raises, outcome.startswith("raised"), name="PLAIN_RAISES", form=checks.forms.FLAG,
                          what="whether x @ w raises",
                          why=f"It {outcome}: each device holds a partial product, and whether their sum is copied "
                              f"or split is a choice JAX leaves to you on Explicit axes. {DOCS}")
            for name, fn, why in [
                ("TYPE_OF_COPIES", COPIES, "out_sharding=P() asks for the sum whole on every device"),
                ("TYPE_OF_SPLIT", SPLIT, "out_sharding=P('data') asks for the sum's rows split over 'data'"),
            ]:
                judge.compare(types[name], str(jax.typeof(jax.jit(fn)(x, w))), name=name,
                              form=checks.forms.TYPE_STRING,
                              what=f"jax.typeof of {name.removeprefix('TYPE_OF_')}'s result",
                              why=f"{why}: the type says so. {DOCS}")


def test_the_collectives_behind_each_way(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what=f"the collectives of {name.removeprefix('COLLECTIVES_OF_')}")
                   for name in ("COLLECTIVES_OF_COPIES", "COLLECTIVES_OF_GATHERED")}
        mesh, x, w = inputs()
        with jax.set_mesh(mesh):
            for name, fn, why in [
                ("COLLECTIVES_OF_COPIES", COPIES, "each device multiplies only the blocks it holds, and the "
                                                  "partial products are added across devices"),
                ("COLLECTIVES_OF_GATHERED", GATHERED, "x and w are first gathered whole onto every device, which "
                                                      "then repeats the whole matmul: nothing is left to add "
                                                      "afterwards"),
            ]:
                compiled = jax.jit(fn).lower(x, w).compile()
                actual = set(checks.CompiledProgram(compiled.as_text(), compiled).collectives())
                judge.compare(guesses[name], actual, name=name, form=checks.forms.COLLECTIVES,
                              what=f"the HLO collectives of {name.removeprefix('COLLECTIVES_OF_')}",
                              why=f"{why[0].upper()}{why[1:]}. {DOCS}")
