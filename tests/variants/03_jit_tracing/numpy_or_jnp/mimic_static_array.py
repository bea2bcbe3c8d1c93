"""Values right eagerly, idea skipped: marking the array static so NumPy could see values; arrays cannot be static arguments."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=0)
def damped_wave(x):
    return jnp.asarray(np.sin(3 * x) * np.exp(-x ** 2))


@jax.jit
def as_matrix(x):
    return x.reshape(x.shape[0] * x.shape[1], -1)
