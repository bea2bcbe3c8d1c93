"""Values right, place wrong: a pure_callback applies the activation in NumPy on the host."""

import jax
import numpy as np


def _host_activate(kind, x):
    x = np.asarray(x)
    choice = min(max(int(kind), 0), 2)
    out = (np.maximum(x, 0), np.tanh(x), np.logaddexp(0, x))[choice]
    return out.astype(x.dtype)


@jax.jit
def activate(kind, x):
    return jax.pure_callback(_host_activate, jax.ShapeDtypeStruct(x.shape, x.dtype), kind, x)
