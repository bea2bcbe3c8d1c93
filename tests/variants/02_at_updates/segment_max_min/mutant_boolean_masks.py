"""Wrong: NumPy-style boolean masks fail on empty segments and cannot be traced under jit."""

import jax.numpy as jnp

NUM_SEGMENTS = 4


def segment_max_min(values, segment_ids):
    maxes = jnp.stack([values[segment_ids == s].max() for s in range(NUM_SEGMENTS)])
    mins = jnp.stack([values[segment_ids == s].min() for s in range(NUM_SEGMENTS)])
    return maxes, mins
