"""Wrong: carries a key, but starts from a key made inside, so every caller gets the same walk."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(carry, _):
        position, key = carry
        key, subkey = jax.random.split(key)
        position = position + jnp.where(jax.random.bernoulli(subkey), 1, -1)
        return (position, key), position

    _, positions = lax.scan(step, (jnp.int32(0), jax.random.key(0)), None, length=n_steps)
    return positions
