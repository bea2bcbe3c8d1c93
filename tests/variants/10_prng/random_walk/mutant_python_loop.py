"""Wrong: a correct walk, but a Python loop: the traced program grows with the number of steps."""

import jax
import jax.numpy as jnp


def random_walk(key, n_steps):
    position, positions = jnp.int32(0), []
    for _ in range(n_steps):
        key, subkey = jax.random.split(key)
        position = position + jnp.where(jax.random.bernoulli(subkey), 1, -1)
        positions.append(position)
    return jnp.stack(positions)
