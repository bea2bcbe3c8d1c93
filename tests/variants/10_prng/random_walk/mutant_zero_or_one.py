"""Wrong: randint(0, 2) moves by 0 or +1, never -1: the walk only drifts upwards."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(carry, _):
        position, key = carry
        key, subkey = jax.random.split(key)
        position = position + jax.random.randint(subkey, (), 0, 2)
        return (position, key), position

    _, positions = lax.scan(step, (jnp.int32(0), key), None, length=n_steps)
    return positions
