"""Wrong: the mean runs over the whole array, not each row, so rows are scaled together."""

import jax
import jax.numpy as jnp

EPS = 1e-6


@jax.jit
def rms_norm(x):
    return x / jnp.sqrt(jnp.mean(x ** 2) + EPS)
