"""Wrong: starting from zeros lets the 0 win: all-negative segments get max 0, all-positive ones min 0."""

import jax.numpy as jnp

NUM_SEGMENTS = 4


def segment_max_min(values, segment_ids):
    maxes = jnp.zeros(NUM_SEGMENTS, dtype=values.dtype).at[segment_ids].max(values)
    mins = jnp.zeros(NUM_SEGMENTS, dtype=values.dtype).at[segment_ids].min(values)
    return maxes, mins
