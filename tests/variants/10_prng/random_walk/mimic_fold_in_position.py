"""Values look right, randomness wrong: each step's key is fold_in(key, position), so a position always
gives the same move and the walk soon cycles between two positions; its moves are +1 and -1 with
mean near 0, as a fair walk's are."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(position, _):
        position = position + jnp.where(jax.random.bernoulli(jax.random.fold_in(key, position)), 1, -1)
        return position, position

    _, positions = lax.scan(step, jnp.int32(0), None, length=n_steps)
    return positions
