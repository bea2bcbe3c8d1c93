"""Values right, loop wrong: the walk as a cumsum of moves drawn at once, passed through the loop as two copies that each step averages (or 2a - b): on the real data the
loop changes nothing, and the values were computed beside it."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key: jax.Array, n_steps: int) -> jnp.ndarray:
    moves = jnp.where(jax.random.bernoulli(key, shape=(n_steps,)), 1, -1).astype(jnp.int32)
    walk = jnp.cumsum(moves)

    def step(carry, ab):
        a, b = ab
        y = 2 * a - b
        return y, y

    _, positions = lax.scan(step, jnp.int32(0), (walk, walk))
    return positions
