"""Checks for at-3 (segment_max_min)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

NUM_SEGMENTS = 4
IDENTITY = ("The starting array takes part in every comparison, so it must be the identity of the "
            "operation: a value no max (or min) can ever lose to.")


def reference(values, segment_ids):
    maxes = np.full(NUM_SEGMENTS, -np.inf, dtype=np.float32)
    mins = np.full(NUM_SEGMENTS, np.inf, dtype=np.float32)
    for v, s in zip(values, segment_ids):
        maxes[s], mins[s] = max(maxes[s], v), min(mins[s], v)
    return maxes, mins


def _what_went_wrong(out, values, segment_ids):
    """Name the starting-value mistake the result shows, if it shows one."""
    try:
        maxes, mins = (np.asarray(o, np.float64) for o in out)
    except (TypeError, ValueError):
        return ""
    if maxes.shape != (NUM_SEGMENTS,) or mins.shape != (NUM_SEGMENTS,):
        return ""
    present = set(np.asarray(segment_ids).tolist())
    for s in range(NUM_SEGMENTS):
        if s not in present and (np.isfinite(maxes[s]) or np.isfinite(mins[s])):
            return (f"Segment {s} is empty, yet it came back as max {maxes[s]:g}, min {mins[s]:g}: a "
                    f"finite starting value (zeros, or the dtype's largest number) is not the identity "
                    f"of max and min, and an empty segment keeps whatever it started from. {IDENTITY}")
        members = np.asarray(values)[np.asarray(segment_ids) == s]
        if len(members) and members.max() < 0 and maxes[s] == 0:
            return (f"Segment {s} holds only negative values, yet its max came back 0: the zeros it "
                    f"started from won the comparison. {IDENTITY}")
        if len(members) and members.min() > 0 and mins[s] == 0:
            return (f"Segment {s} holds only positive values, yet its min came back 0: the zeros it "
                    f"started from won the comparison. {IDENTITY}")
    return ""


def check(exercise, values, segment_ids, fn=None, what="segment_max_min", hint=""):
    fn = fn or exercise.segment_max_min
    try:
        out = checks.call_on_device(fn, jnp.asarray(values), jnp.asarray(segment_ids), what=what,
                                    why="The same scatter exists on JAX arrays, in .at[...].max/.min.")
    except (jax.errors.NonConcreteBooleanIndexError, jax.errors.ConcretizationTypeError,
            jax.errors.TracerBoolConversionError, jax.errors.TracerIntegerConversionError) as error:
        checks.fail(f"{what} cannot be traced ({type(error).__name__}): it picks the values of each segment "
                    f"with a boolean mask or a Python branch, whose result's shape depends on the data. "
                    f"Under jit every shape must be known before the values are, so work on the whole "
                    f"arrays at once: scatter each value onto its segment's slot. "
                    f"See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html", "traced-value")
    except ValueError as error:
        if "zero-size array" not in str(error):
            raise
        checks.fail(f"{what} reduced an empty selection ({error}): a segment nothing lands on has no "
                    f"values to take a max or min of. Start every slot from the identity of the "
                    f"operation and scatter the values onto it, so an empty segment simply keeps its "
                    f"start. {IDENTITY}", "wrong-values")
    except jax.errors.TracerArrayConversionError:
        checks.fail(f"{what} hands the traced values to NumPy (np.maximum.at, np.asarray...): under jit they "
                    f"have no values yet. The same scatter exists on JAX arrays, in .at[...]. "
                    f"See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html", "numpy-on-tracer")
    checks.assert_close(tuple(out), reference(values, segment_ids),
                        what=f"{what}({np.round(values, 2).tolist()}, {segment_ids.tolist()})",
                        hint=_what_went_wrong(out, values, segment_ids) or hint)


def test_segments_of_negative_values(exercise):
    # Every segment is present; two hold only negative values.
    values = np.array([-3.0, 4.0, -1.5, -7.0, 2.5, -0.5, -2.0, -9.0, 1.0], dtype=np.float32)
    segment_ids = np.array([0, 1, 0, 2, 1, 2, 3, 3, 3])
    check(exercise, values, segment_ids, hint=IDENTITY)


def test_empty_segment_keeps_the_identity(exercise):
    values = np.array([-3.0, 4.0, -1.5, 2.5, -0.5], dtype=np.float32)
    segment_ids = np.array([2, 0, 2, 0, 0])  # segments 1 and 3 are empty
    check(exercise, values, segment_ids,
          hint="An empty segment must come back as max -inf and min +inf, the identities of max "
               "and min. " + IDENTITY)


def test_runs_under_jit_without_unrolling(exercise):
    rng = np.random.default_rng(3)
    values = rng.normal(size=10).astype(np.float32)
    segment_ids = rng.integers(0, NUM_SEGMENTS, size=10)
    check(exercise, values, segment_ids, fn=jax.jit(exercise.segment_max_min),
          what="jax.jit(segment_max_min)")
    # The programs whose sizes are compared must compute the segments' max and min (JAX doing the work).
    sizes = {}
    for n in (4, 32):
        values = rng.normal(size=n).astype(np.float32)
        segment_ids = rng.integers(0, NUM_SEGMENTS, size=n).astype(np.int32)
        program = checks.program_of(exercise.segment_max_min, jnp.asarray(values), jnp.asarray(segment_ids),
                                    what="segment_max_min")
        checks.assert_computes(program, reference(values, segment_ids),
                               what=f"segment_max_min(values, segment_ids) of length {n}")
        sizes[n] = len(program.primitives())
    checks.assert_not_unrolled(
        sizes, what="segment_max_min(values, segment_ids)",
        hint="No loop is needed: one scatter over the whole arrays handles every value at once.")
