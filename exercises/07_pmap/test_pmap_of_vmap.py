"""Checks for pmap-5 (pmap_of_vmap)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from grader import checks

REUSE_WHY = ("Build the pmapped function once, where it is defined (a module-level function, its "
             "unmapped arguments named with in_axes), and call that.")

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

M, K, P = 3, 2, 5
HINT = "pmap takes the device axis; inside it, vmap takes the batch axis, so affine sees one example."


def _inputs(batch):
    n = jax.device_count()
    rng = np.random.default_rng(batch)
    a = rng.normal(size=(n, batch, M, K)).astype(np.float32)
    b = rng.normal(size=(n, batch, K, P)).astype(np.float32)
    c = rng.normal(size=(n, batch, P)).astype(np.float32)
    return a, b, c


def _by_hand(a, b, c):
    return np.einsum("nbmk,nbkp->nbmp", a, b) + c[:, :, None, :]


def _call(exercise, a, b, c):
    return exercise.affine_everywhere(a, b, c)


def test_shape_is_devices_by_batch(exercise):
    a, b, c = _inputs(batch=4)
    out = _call(exercise, a, b, c)
    checks.assert_shape_dtype(out, (jax.device_count(), 4, M, P), jnp.float32,
                              what="affine_everywhere(a, b, c) with 4 examples per device", hint=HINT)


def test_each_example_gets_its_own_affine(exercise):
    for batch in (1, 4):
        a, b, c = _inputs(batch)
        out = _call(exercise, a, b, c)
        checks.assert_close(out, _by_hand(a, b, c), rtol=1e-5, atol=1e-5,
                            what=f"affine_everywhere(a, b, c) with {batch} example(s) per device",
                            hint="Entry [i, j] is affine(a[i, j], b[i, j], c[i, j]). " + HINT)
    # A Python loop over the examples inside pmap gets the values too, one traced copy of affine per
    # example; vmap traces affine once, whatever the batch.
    checks.assert_not_unrolled_over_batch(exercise.affine_everywhere, _inputs, (2, 5),
                                          what="affine_everywhere(a, b, c)", hint=HINT, expected=_by_hand,
                                          rtol=1e-5, atol=1e-5)
    checks.assert_reuses_program(lambda: _call(exercise, a, b, c), what="affine_everywhere(a, b, c)",
                                 calls="2 more calls with the same shapes", why=REUSE_WHY)


def each_device_computes_its_own_batch(exercise):
    """The matmuls run per device on that device's batch, which stays there (module level: rerun with 4
    devices)."""
    a, b, c = _inputs(batch=4)
    n = jax.device_count()
    what = "affine_everywhere(a, b, c)"
    out = _call(exercise, a, b, c)
    checks.assert_close(out, _by_hand(a, b, c), rtol=1e-5, atol=1e-5, what=what)
    # Placement is not proof: the program must do the matmuls per device, on each device's own batch.
    program = checks.assert_runs_on_devices(exercise.affine_everywhere, a, b, c, what=what, work=("dot_general",),
                                            split=(a.shape, b.shape, c.shape), hint=HINT)
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the work's output stays.
    checks.assert_computes(program, _by_hand(a, b, c), what=what, rtol=1e-5, atol=1e-5)
    checks.assert_split_over_devices(program.values(), what=what,
                                     hint="The outer transformation must be jax.pmap. " + HINT)


def test_each_device_holds_its_own_batch(exercise):
    each_device_computes_its_own_batch(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, each_device_computes_its_own_batch, exercise)
