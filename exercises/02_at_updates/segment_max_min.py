"""Scatter-max and scatter-min: per-segment extremes with `.at[...].max/.min`.

`x.at[idx].max(v)` keeps, in every slot, the largest of what was there and
every value scattered onto it (repeated indices included); `.min` keeps the
smallest. What you start from matters: it takes part in the comparison. Start
from the identity of the operation, -inf for a max and +inf for a min, and a
slot nothing lands on keeps that identity, while a slot that only receives
negative values is not stuck at a zero it started with.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html

Task (fill-in): `segment_max_min(values, segment_ids)` returns `(maxes, mins)`,
two float arrays of shape (NUM_SEGMENTS,): the largest and the smallest value
of each segment `0..NUM_SEGMENTS-1` (segment ids are in range, in any order).
An empty segment's max is -inf and its min +inf. It must work under jax.jit,
with a traced program that does not grow with the number of values, and on
the arrays where they are: no copy of the values to NumPy.
"""

import jax.numpy as jnp

NUM_SEGMENTS = 4


def segment_max_min(values: jnp.ndarray, segment_ids: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    raise NotImplementedError("TODO: scatter values with .at[segment_ids].max / .min into identity-filled arrays")
