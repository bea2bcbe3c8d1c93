"""Right, unusually: a fori_loop (a scan, with static bounds) folds the step number into the key
instead of carrying and splitting it; the positions go into a preallocated array."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def body(i, carry):
        position, positions = carry
        position = position + jnp.where(jax.random.bernoulli(jax.random.fold_in(key, i)), 1, -1)
        return position, positions.at[i].set(position)

    _, positions = lax.fori_loop(0, n_steps, body, (jnp.int32(0), jnp.zeros(n_steps, jnp.int32)))
    return positions
