"""Checks for at-3 (segment_max_min)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

NUM_SEGMENTS = 4
IDENTITY_HINT = ("Start the max from -inf and the min from +inf: the starting value takes part in "
                 "the comparison, so zeros (or any finite sentinel) leak into the result.")


def reference(values, segment_ids):
    maxes = np.full(NUM_SEGMENTS, -np.inf, dtype=np.float32)
    mins = np.full(NUM_SEGMENTS, np.inf, dtype=np.float32)
    for v, s in zip(values, segment_ids):
        maxes[s], mins[s] = max(maxes[s], v), min(mins[s], v)
    return maxes, mins


def check(exercise, values, segment_ids, fn=None, hint=""):
    fn = fn or exercise.segment_max_min
    out = fn(jnp.asarray(values), jnp.asarray(segment_ids))
    checks.assert_close(tuple(out), reference(values, segment_ids),
                        what=f"segment_max_min({values.tolist()}, {segment_ids.tolist()})", hint=hint)


def test_segments_of_negative_values(exercise):
    # Every segment is present; two hold only negative values.
    values = np.array([-3.0, 4.0, -1.5, -7.0, 2.5, -0.5, -2.0, -9.0, 1.0], dtype=np.float32)
    segment_ids = np.array([0, 1, 0, 2, 1, 2, 3, 3, 3])
    check(exercise, values, segment_ids, hint=IDENTITY_HINT)


def test_empty_segment_keeps_the_identity(exercise):
    values = np.array([-3.0, 4.0, -1.5, 2.5, -0.5], dtype=np.float32)
    segment_ids = np.array([2, 0, 2, 0, 0])  # segments 1 and 3 are empty
    check(exercise, values, segment_ids,
          hint="An empty segment must come back as max -inf and min +inf, the identities of max "
               "and min: " + IDENTITY_HINT)


def test_runs_under_jit_without_unrolling(exercise):
    rng = np.random.default_rng(3)
    values = rng.normal(size=10).astype(np.float32)
    segment_ids = rng.integers(0, NUM_SEGMENTS, size=10)
    check(exercise, values, segment_ids, fn=jax.jit(exercise.segment_max_min),
          hint="Under jit, use jnp operations on the whole arrays: boolean masks like "
               "values[segment_ids == s] have data-dependent shapes and cannot be traced.")
    sizes = {n: checks.jaxpr_size(exercise.segment_max_min, jnp.zeros(n), jnp.zeros(n, dtype=jnp.int32))
             for n in (4, 32)}
    checks.assert_not_unrolled(
        sizes, what="segment_max_min(values, segment_ids)",
        hint="No loop is needed: one .at[segment_ids].max(values) handles every value at once.")
