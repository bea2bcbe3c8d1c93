"""Checks for pmap-1 (device_convolve)."""

import jax
import numpy as np
import pytest

from grader import checks

REUSE_WHY = ("Build the pmapped function once, where it is defined (a module-level function, its "
             "unmapped arguments named with in_axes), and call that.")

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

LENGTH, TAPS = 9, 3
HINT = "Map convolve itself over the devices (jax.pmap): vmap computes the same numbers on one device."


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
    checks.assert_reuses_program(lambda: exercise.convolve_per_device(xs, ws), what="convolve_per_device(xs, ws)",
                                 calls="2 more calls with the same shapes", why=REUSE_WHY)


def computed_on_every_device(exercise):
    """Each device convolves its own row, and the row stays there (module level: rerun with 4 devices)."""
    xs, ws = _inputs()
    n = jax.device_count()
    out = exercise.convolve_per_device(xs, ws)
    checks.assert_close(out, _by_hand(xs, ws), what="convolve_per_device(xs, ws)", rtol=1e-5, atol=1e-5)
    # Placement is not proof: a result computed on one device and moved with device_put lands in
    # the same place. The program shows where the convolution itself ran.
    program = checks.assert_runs_on_devices(
        exercise.convolve_per_device, xs, ws, what="convolve_per_device(xs, ws)", work=("conv_general_dilated",),
        split=((n, LENGTH), (n, TAPS)), hint=HINT)
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the work's output stays.
    checks.assert_computes(program, _by_hand(xs, ws), what="convolve_per_device(xs, ws)", rtol=1e-5, atol=1e-5)
    checks.assert_split_over_devices(program.values(), what="convolve_per_device(xs, ws)", hint=HINT)


def test_each_device_convolves_its_own_row(exercise):
    computed_on_every_device(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, computed_on_every_device, exercise)
