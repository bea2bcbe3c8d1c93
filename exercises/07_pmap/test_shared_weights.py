"""Checks for pmap-2 (shared_weights)."""

import jax
import jax.extend
import numpy as np

from grader import checks

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

LENGTH, TAPS = 12, 3


def _inputs():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(jax.device_count(), LENGTH)).astype(np.float32)
    w = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    return xs, w


def _shapes_in_program(fn, *args):
    """Every value's shape in the traced program: inputs, constants and all results, nested included."""
    closed = checks.traced_jaxpr(fn, *args, what="convolve_shared")
    shapes = [tuple(np.shape(c)) for c in closed.consts]

    def walk(jaxpr):
        for var in [*jaxpr.invars, *jaxpr.constvars]:
            shapes.append(tuple(var.aval.shape))
        for eqn in jaxpr.eqns:
            shapes.extend(tuple(getattr(v.aval, "shape", ())) for v in eqn.outvars)
            for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                walk(getattr(sub, "jaxpr", sub))

    walk(closed.jaxpr)
    return shapes


def test_every_device_uses_the_one_filter(exercise):
    xs, w = _inputs()
    out = exercise.convolve_shared(xs, w)
    want = np.stack([np.convolve(x, w, mode="valid") for x in xs])
    checks.assert_close(out, want, what="convolve_shared(xs, w)", rtol=1e-5, atol=1e-5,
                        hint="Every row is filtered with the same w: in_axes=(0, None) maps xs and shares w.")


def test_result_is_spread_over_all_devices(exercise):
    xs, w = _inputs()
    out = exercise.convolve_shared(xs, w)
    checks.assert_split_over_devices(out, what="convolve_shared(xs, w)",
                                     hint="jax.pmap(convolve, in_axes=(0, None)) keeps row i on device i.")


def test_filter_is_not_copied_per_device(exercise):
    xs, w = _inputs()
    copies = (jax.device_count(), TAPS)
    shapes = _shapes_in_program(exercise.convolve_shared, xs, w)
    if copies in shapes:
        checks.fail(f"convolve_shared builds an array of shape {copies}: one copy of the filter per "
                    f"device, stacked and then split again on every call. Give pmap the filter once "
                    f"with in_axes=(0, None): None broadcasts an argument to every device. "
                    f"See https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html")
