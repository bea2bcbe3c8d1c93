"""Checks for explicit-7 (predict_types): run here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

DOCS = f"See {checks.DOCS}/notebooks/explicit-sharding.html"

RESULTS = {
    "TRANSPOSED": lambda a, w: a.T,
    "DOUBLED": lambda a, w: 2 * a,
    "TIMES_W": lambda a, w: a @ w,
    "SUM_OVER_ROWS": lambda a, w: jnp.sum(a, axis=0),
    "SUM_OVER_COLUMNS": lambda a, w: jnp.sum(a, axis=1),
    "FIRST_HALF": lambda a, w: a[:8],
}
GRAM = lambda a, w: a.T @ a


def inputs():
    """a and w as described, on a 1-D Explicit mesh over every device."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    a = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(mesh, P("data")))
    w = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P()))
    return mesh, a, w


WHY = {
    "TRANSPOSED": "a transpose swaps the dimensions, and the split goes with the rows, now second",
    "DOUBLED": "an elementwise op keeps its operand's split",
    "TIMES_W": "each device multiplies the rows it holds by its copy of w: the rows stay split",
    "SUM_OVER_ROWS": "summing over the split dimension adds the devices' partial sums, and the result, without "
                     "that dimension, is a copy on every device",
    "SUM_OVER_COLUMNS": "each row is summed where it lives: the rows stay split",
    "FIRST_HALF": "the 8 rows kept still divide evenly over the devices, so they stay split",
}


def test_the_types_of_the_results(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what=f"the type of {name}") for name in RESULTS}
        mesh, a, w = inputs()
        with jax.set_mesh(mesh):
            for name, fn in RESULTS.items():
                actual = str(jax.typeof(jax.jit(fn)(a, w)))
                judge.compare(guesses[name], actual, name=name, form=checks.forms.TYPE_STRING,
                              what=f"jax.typeof of {name} for a: {jax.typeof(a)}",
                              why=f"{WHY[name][0].upper()}{WHY[name][1:]}. {DOCS}")


def test_an_ambiguous_contraction_raises(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("GRAM_RAISES", what="whether GRAM raises")
        mesh, a, w = inputs()
        with jax.set_mesh(mesh):
            try:
                outcome = f"returned {jax.typeof(jax.jit(GRAM)(a, w))}"
            except Exception as error:  # noqa: BLE001 - which error it is goes into the message
                outcome = f"raised {type(error).__name__}"
        judge.compare(guess, outcome.startswith("raised"), name="GRAM_RAISES", form=checks.forms.FLAG,
                      what="whether a.T @ a raises",
                      why=f"It {outcome}: a.T @ a sums over a's rows, split on both operands, so each device holds "
                          f"only a partial product and the result could be copied or split; on Explicit axes JAX "
                          f"asks for out_sharding instead of choosing. {DOCS}")
