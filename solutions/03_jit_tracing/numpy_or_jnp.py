"""Reference solution for jit-6: jnp for traced values, NumPy for static shapes."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def damped_wave(x: jnp.ndarray) -> jnp.ndarray:
    return jnp.sin(3 * x) * jnp.exp(-x ** 2)


@jax.jit
def as_matrix(x: jnp.ndarray) -> jnp.ndarray:
    # x.shape is a tuple of Python ints even under jit: np.prod runs now, at
    # trace time, and the size is a constant in the program.
    return x.reshape(np.prod(x.shape[:2]), -1)
