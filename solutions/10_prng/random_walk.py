"""Reference solution for prng-4: the key rides in the scan carry."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key: jax.Array, n_steps: int) -> jnp.ndarray:
    def step(carry, _):
        position, key = carry
        key, subkey = jax.random.split(key)  # subkey for this step, key for the next
        position = position + jnp.where(jax.random.bernoulli(subkey), 1, -1)
        return (position, key), position

    _, positions = lax.scan(step, (jnp.int32(0), key), None, length=n_steps)
    return positions
