"""Right, differently: split all the keys up front and scan over them."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(position, subkey):
        position = position + jnp.where(jax.random.bernoulli(subkey), 1, -1)
        return position, position

    _, positions = lax.scan(step, jnp.int32(0), jax.random.split(key, n_steps))
    return positions
