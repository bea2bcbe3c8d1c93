"""Values right, idea skipped: the learning-rate product runs eagerly; the jitted function only subtracts."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _subtract(w, step):
    return w - step


def apply_update(w, grad, lr):
    return _subtract(w, np.float32(lr) * grad)
