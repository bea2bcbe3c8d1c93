"""Right, differently: no loop at all: draw every move at once and take a cumulative sum."""

import jax
import jax.numpy as jnp


def random_walk(key, n_steps):
    moves = 2 * jax.random.bernoulli(key, 0.5, (n_steps,)).astype(jnp.int32) - 1
    return jnp.cumsum(moves)
