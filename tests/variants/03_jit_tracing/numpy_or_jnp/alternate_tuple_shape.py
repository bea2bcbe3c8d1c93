"""Right, unusually: spells out both sizes with math.prod and calls jnp.reshape; lax.sin for the wave."""

import math

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def damped_wave(x):
    return lax.sin(3.0 * x) * jnp.exp(-jnp.square(x))


@jax.jit
def as_matrix(x):
    return jnp.reshape(x, (math.prod(x.shape[:2]), math.prod(x.shape[2:])))
