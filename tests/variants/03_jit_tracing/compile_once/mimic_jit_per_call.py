"""Values right, idea skipped: jax.jit of a fresh lambda inside the function is a new function per call, so it recompiles every time."""

import jax
import jax.numpy as jnp

EPS = 1e-6


def rms_norm(x):
    return jax.jit(lambda v: v / jnp.sqrt(jnp.mean(v ** 2, axis=-1, keepdims=True) + EPS))(x)
