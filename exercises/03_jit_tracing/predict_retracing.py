"""Predict: which calls make jit trace again?

jit runs a function's Python body once per *signature* of its arguments and
caches the compiled program under it: each array's shape and dtype, whether a
value is *weakly typed*, and how the arguments were passed. A Python scalar is
weak: jax.typeof writes `2.0` as `~float32[]` (it takes the other operand's
dtype); a NumPy or JAX scalar is strong, `float32[]`. Positional and keyword
arguments are different signatures. Values never count: new values with a
known signature reuse the program, and the Python body does not run.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html

Task (predict): without running anything, write down which of the nine calls
below run scale's Python body (they append to TRACES), and the type its body
sees for `factor` in call 3, as jax.typeof prints it. The checks run the calls
and, where you were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax
import jax.numpy as jnp
import numpy as np

TRACES = []  # one entry per run of scale's Python body: the types it saw


@jax.jit
def scale(x, factor):
    TRACES.append((str(jax.typeof(x)), str(jax.typeof(factor))))
    return x * factor


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x3, x4 = jnp.ones(3), jnp.ones(4)
    return [
        lambda: scale(x3, 2.0),  # call 1
        lambda: scale(x3, 3.0),  # call 2
        lambda: scale(x3, 2),  # call 3
        lambda: scale(x4, 2.0),  # call 4
        lambda: scale(x3, jnp.float32(2.0)),  # call 5
        lambda: scale(x3, np.float32(7.0)),  # call 6
        lambda: scale(x3, factor=2.0),  # call 7
        lambda: scale(x3, factor=5.0),  # call 8
        lambda: scale(x3.astype(jnp.bfloat16), 2.0),  # call 9
    ]


# Your predictions: replace each ... with a literal (no running the calls first!)
TRACED_CALLS = ...  # a set of the numbers of the calls that run scale's Python body, e.g. {1, 2}
FACTOR_TYPE_IN_CALL_3 = ...  # a string, as jax.typeof prints it (never f32), e.g. "float32[2,3]"
