"""Values right, loop wrong: the walk is a cumsum of moves drawn up front; a scan that counts up by 2
from a seed taken from the walk is added back as (final - seed - 2 * n), exactly 0. The scan moves
with the key and the outputs follow it, but it computes none of the walk."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key: jax.Array, n_steps: int) -> jnp.ndarray:
    moves = jnp.where(jax.random.bernoulli(key, shape=(n_steps,)), 1, -1)
    positions = jnp.cumsum(moves)
    seed = jnp.sum(positions)

    def step(c, _):
        return c + 2, None

    final, _ = lax.scan(step, seed, None, length=n_steps)
    return positions + (final - seed - 2 * n_steps)
