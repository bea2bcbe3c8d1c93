"""Reference solution for jit-11: the calls whose signature is new trace; values never count."""

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


# Your predictions, worked out:
# 1: the first. 3: a Python int is a weak int32. 4: a new shape. 5: a strong float32 scalar. 7: the same types
# as call 1, but factor by keyword. 9: a new dtype. 2, 6 and 8 reuse programs (6 is call 5's signature: a NumPy
# float32 is as strong as a JAX one; 8 is call 7's).
TRACED_CALLS = {1, 3, 4, 5, 7, 9}
FACTOR_TYPE_IN_CALL_3 = "~int32[]"
