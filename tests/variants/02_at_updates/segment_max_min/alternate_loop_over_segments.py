"""Right, unusually: one lax.fori_loop over the segments, each a masked reduction (a rolled loop of NUM_SEGMENTS steps)."""

import jax.numpy as jnp
from jax import lax

NUM_SEGMENTS = 4


def segment_max_min(values, segment_ids):
    def body(s, carry):
        maxes, mins = carry
        member = segment_ids == s
        maxes = maxes.at[s].set(jnp.max(jnp.where(member, values, -jnp.inf)))
        mins = mins.at[s].set(jnp.min(jnp.where(member, values, jnp.inf)))
        return maxes, mins

    start = (jnp.zeros(NUM_SEGMENTS, values.dtype), jnp.zeros(NUM_SEGMENTS, values.dtype))
    return lax.fori_loop(0, NUM_SEGMENTS, body, start)
