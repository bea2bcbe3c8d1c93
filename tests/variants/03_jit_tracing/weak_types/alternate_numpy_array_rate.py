"""Right, unusually: a 0-d NumPy float32 array (not a scalar) carries lr; every call hands jit the same strong float32 type."""

import jax
import numpy as np


@jax.jit
def _apply_update(w, grad, lr):
    return w - lr * grad


def apply_update(w, grad, lr):
    return _apply_update(w, grad, np.asarray(lr, dtype=np.float32))
