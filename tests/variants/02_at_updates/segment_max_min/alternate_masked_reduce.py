"""Right, unusually: a (segments x values) membership mask, reduced along the values (O(S*N) work, no scatter)."""

import jax.numpy as jnp

NUM_SEGMENTS = 4


def segment_max_min(values, segment_ids):
    member = segment_ids[None, :] == jnp.arange(NUM_SEGMENTS)[:, None]
    maxes = jnp.where(member, values[None, :], -jnp.inf).max(axis=1)
    mins = jnp.where(member, values[None, :], jnp.inf).min(axis=1)
    return maxes, mins
