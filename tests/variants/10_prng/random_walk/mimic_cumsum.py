"""Values right, tool wrong: every move drawn at once and summed with a cumsum: a fair walk, but no
lax.scan, which the task keeps (the key never travels through a loop)."""

import jax
import jax.numpy as jnp


def random_walk(key, n_steps):
    moves = 2 * jax.random.bernoulli(key, 0.5, (n_steps,)).astype(jnp.int32) - 1
    return jnp.cumsum(moves)
