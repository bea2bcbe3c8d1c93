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


def test_the_types_of_the_results(exercise):
    mesh, a, w = inputs()
    with jax.set_mesh(mesh):
        for name, fn in RESULTS.items():
            guess = checks.predicted(exercise, name, what=f"the type of {name}")
            actual = str(jax.typeof(jax.jit(fn)(a, w)))
            checks.assert_predicted(guess, actual, name=name, what=f"jax.typeof of {name} for a: {jax.typeof(a)}",
                                    same=checks.same_type, why=f"{WHY[name][0].upper()}{WHY[name][1:]}. {DOCS}")


def test_an_ambiguous_contraction_raises(exercise):
    guess = checks.predicted(exercise, "GRAM_RAISES", what="whether GRAM raises")
    mesh, a, w = inputs()
    with jax.set_mesh(mesh):
        try:
            outcome = f"returned {jax.typeof(jax.jit(GRAM)(a, w))}"
        except Exception as error:  # noqa: BLE001 - which error it is goes into the message
            outcome = f"raised {type(error).__name__}"
    checks.assert_predicted(guess, outcome.startswith("raised"), name="GRAM_RAISES", what="whether a.T @ a raises",
                            why=f"It {outcome}: a.T @ a sums over a's rows, split on both operands, so each device "
                                f"holds only a partial product and the result could be copied or split; on "
                                f"Explicit axes JAX asks for out_sharding instead of choosing. {DOCS}")
