"""Checks for pmap-2 (shared_weights)."""

import math

import jax
import numpy as np
import pytest

from grader import checks

REUSE_WHY = ("Build the pmapped function once, where it is defined (a module-level function, its "
             "unmapped arguments named with in_axes), and call that.")

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

LENGTH, TAPS = 12, 3
PMAP_DOCS = f"{checks.DOCS}/_autosummary/jax.pmap.html"
WHAT = "convolve_shared(xs, w)"


def _inputs():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(jax.device_count(), LENGTH)).astype(np.float32)
    w = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    return xs, w


def _by_hand(xs, w):
    return np.stack([np.convolve(x, w, mode="valid") for x in xs])


def test_every_device_uses_the_one_filter(exercise):
    xs, w = _inputs()
    out = exercise.convolve_shared(xs, w)
    checks.assert_close(out, _by_hand(xs, w), what=WHAT, rtol=1e-5, atol=1e-5,
                        hint="Every row is filtered with the same w: map the signals over the devices and "
                             "give each device the whole filter.")
    checks.assert_reuses_program(lambda: exercise.convolve_shared(xs, w), what=WHAT,
                                 calls="2 more calls with the same shapes", why=REUSE_WHY)


def filter_reaches_each_device_once(exercise):
    """Signals split, the one filter sent whole, work per device (module level: rerun with 4 devices)."""
    xs, w = _inputs()
    n = jax.device_count()
    out = exercise.convolve_shared(xs, w)
    checks.assert_close(out, _by_hand(xs, w), what=WHAT, rtol=1e-5, atol=1e-5)
    program = checks.assert_runs_on_devices(
        exercise.convolve_shared, xs, w, what=WHAT, work=("conv_general_dilated",), split=((n, LENGTH),),
        hint="Map convolve over the devices with jax.pmap: vmap computes the same numbers on one device.")
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the work's output stays.
    checks.assert_computes(program, _by_hand(xs, w), what=WHAT, rtol=1e-5, atol=1e-5)
    checks.assert_split_over_devices(program.values(), what=WHAT, hint="Each device keeps the row it computed.")
    # No stack of copies of the filter anywhere in the program, whatever its shape (padded to look
    # like the signals, say).
    checks.assert_no_stacked_copies(exercise.convolve_shared, xs, w, shared={"[1]": "the filter w"}, copies=n,
                                    what=WHAT, hint="pmap's in_axes can give an argument to every device whole.")
    # What each device is handed besides its signal: the filter must arrive whole, once.
    for call in program.mapped_calls():
        signals = [k for k, (whole, per_device) in enumerate(call.inputs) if whole == (n, LENGTH)]
        for k, (whole, per_device) in enumerate(call.inputs):
            if signals and k == signals[0]:
                continue
            if whole != per_device:
                checks.fail(f"{WHAT} hands pmap the filter with a device axis: an array of shape {whole}, "
                            f"split so that each device gets a {per_device} slice. That is a stack of {n} "
                            f"copies of one filter, built and split again on every call. pmap's in_axes can "
                            f"give an argument to every device whole instead of splitting it. "
                            f"See {PMAP_DOCS}", "wrong-sharding")
            if math.prod(whole) > TAPS:
                checks.fail(f"{WHAT} sends every device an array of shape {whole} ({math.prod(whole)} "
                            f"values) to filter with, a stack of copies of the {TAPS}-tap filter. Each "
                            f"device needs the one filter once: pass w itself, unmapped. See {PMAP_DOCS}",
                            "wrong-sharding")


def test_signals_split_and_filter_shared(exercise):
    filter_reaches_each_device_once(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, filter_reaches_each_device_once, exercise)
