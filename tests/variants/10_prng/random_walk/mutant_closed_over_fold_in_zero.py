"""Wrong: fold_in(key, 0) inside the body is still one fixed key for every step."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(position, _):
        position = position + jnp.where(jax.random.bernoulli(jax.random.fold_in(key, 0)), 1, -1)
        return position, position

    _, positions = lax.scan(step, jnp.int32(0), None, length=n_steps)
    return positions
