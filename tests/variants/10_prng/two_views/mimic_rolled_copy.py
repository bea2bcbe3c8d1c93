"""Values right, independence wrong: one draw of noise, and view_b gets the same noise rolled by one
element; the two noises are uncorrelated element by element, but one is a copy of the other."""

import jax
import jax.numpy as jnp


def two_views(key, x, sigma=0.1):
    noise = sigma * jax.random.normal(key, x.shape)
    return x + noise, x + jnp.roll(noise, 1)
