"""Hidden checks for pmap-2 (shared_weights): a filter and signal length the visible checks do not show."""

import jax
import numpy as np

from grader import checks


def test_filters_with_an_unseen_filter(exercise):
    rng = np.random.default_rng(11)
    xs = rng.normal(size=(jax.device_count(), 10)).astype(np.float32)
    w = np.array([1.5, 0.25, -0.75, 3.0], dtype=np.float32)
    out = exercise.convolve_shared(xs, w)
    want = np.stack([np.convolve(x, w, mode="valid") for x in xs])
    checks.assert_close(out, want, what="convolve_shared(xs, w) with a new 4-tap filter", rtol=1e-5, atol=1e-5,
                        hint="Filter every row with the w you are given, not a filter written into the code.")
    checks.assert_split_over_devices(out, what="convolve_shared(xs, w) with a new 4-tap filter")
