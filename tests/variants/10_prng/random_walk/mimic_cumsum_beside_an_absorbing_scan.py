"""Values right, loop wrong: the walk is a cumsum of moves drawn up front; beside it a lax.scan
whose carry starts at 0 and is multiplied by each move, so it stays 0 whatever the key, is added
to the result. The outputs follow the scan's result and its step computes, but nothing moves it."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    moves = jnp.where(jax.random.bernoulli(key, 0.5, (n_steps,)), 1, -1)

    def step(carry, move):
        carry = carry * move
        return carry, carry

    _, zeros = lax.scan(step, jnp.int32(0), moves)
    return jnp.cumsum(moves) + zeros
