"""Reference solution for jit-1: jit the function once, at module level."""

import jax
import jax.numpy as jnp

EPS = 1e-6


@jax.jit
def rms_norm(x: jnp.ndarray) -> jnp.ndarray:
    # One cached program per input shape; every later same-shape call reuses it.
    return x / jnp.sqrt(jnp.mean(x ** 2, axis=-1, keepdims=True) + EPS)
