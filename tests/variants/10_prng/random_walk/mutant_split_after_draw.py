"""Wrong: draws with the carried key and then splits that same key: each key is used twice."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(carry, _):
        position, key = carry
        position = position + jnp.where(jax.random.bernoulli(key), 1, -1)
        key, _ = jax.random.split(key)
        return (position, key), position

    _, positions = lax.scan(step, (jnp.int32(0), key), None, length=n_steps)
    return positions
