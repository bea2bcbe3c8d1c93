"""Values right, idea skipped: the Newton loop runs in NumPy on the host; nothing is traced or compiled."""

import jax.numpy as jnp
import numpy as np


def newton_step(y, x):
    return 0.5 * (y + x / y)


def newton_sqrt(x, n):
    x = np.asarray(x, dtype=np.float64)
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return jnp.asarray(y, dtype=jnp.float32)
