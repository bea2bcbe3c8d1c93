"""Checks for pmap-1 (device_convolve)."""

import jax
import numpy as np

from grader import checks

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

LENGTH, TAPS = 9, 3


def _inputs():
    n = jax.device_count()
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(n, LENGTH)).astype(np.float32)
    ws = rng.normal(size=(n, TAPS)).astype(np.float32)
    return xs, ws


def _by_hand(xs, ws):
    return np.stack([np.convolve(x, w, mode="valid") for x, w in zip(xs, ws)])


def test_each_device_filters_its_own_signal(exercise):
    xs, ws = _inputs()
    out = exercise.convolve_per_device(xs, ws)
    checks.assert_close(out, _by_hand(xs, ws), what="convolve_per_device(xs, ws)", rtol=1e-5, atol=1e-5,
                        hint="Row i of the result is convolve(xs[i], ws[i]): map both arguments (in_axes=0).")


def test_result_is_spread_over_all_devices(exercise):
    xs, ws = _inputs()
    out = exercise.convolve_per_device(xs, ws)
    checks.assert_split_over_devices(out, what="convolve_per_device(xs, ws)",
                                     hint="Use jax.pmap(convolve): vmap computes the same numbers on one device.")
