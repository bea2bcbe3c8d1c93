"""Reference solution for prng-2: split the key, one subkey per view."""

import jax
import jax.numpy as jnp


def two_views(key: jax.Array, x: jnp.ndarray, sigma: float = 0.1) -> tuple[jnp.ndarray, jnp.ndarray]:
    key_a, key_b = jax.random.split(key)
    view_a = x + sigma * jax.random.normal(key_a, x.shape)
    view_b = x + sigma * jax.random.normal(key_b, x.shape)
    return view_a, view_b
