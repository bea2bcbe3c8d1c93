"""Hidden checks for dtype-4 (x64_timestamps): other timestamps, before 1970 and far ahead."""

import jax
import numpy as np
import pytest

from grader import checks


@pytest.fixture(autouse=True)
def _restore_64_bit_settings():
    before = jax.config.jax_enable_x64
    yield
    jax.config.update("jax_enable_x64", before)


def test_other_timestamps(exercise):
    ns = np.array([-1, -1_000_000, -1_000_001, 631_152_000_123_456_789, 4_102_444_800_999_999_999,
                   9_000_000_000_000_000_001], np.int64)
    out = exercise.to_milliseconds(ns)
    if getattr(out, "dtype", None) != np.int64 or getattr(out, "shape", None) != ns.shape:
        checks.fail(f"to_milliseconds(other timestamps) returned {getattr(out, 'dtype', type(out))} of "
                    f"shape {getattr(out, 'shape', None)}; expected int64 of shape {ns.shape}.", "wrong-shape")
    checks.assert_close(np.asarray(out), ns // 1_000_000, rtol=0, atol=0.5,
                        what="to_milliseconds(timestamps before 1970 and after 2100)",
                        hint="Floor, not truncation: -1 ns is in millisecond -1.")
