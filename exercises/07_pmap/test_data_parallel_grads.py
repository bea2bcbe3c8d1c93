"""Checks for pmap-4 (data_parallel_grads)."""

import jax
import numpy as np

from grader import checks

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

D, PER_DEVICE = 3, 4
COLLECTIVES = {"psum", "pmean", "all_gather", "all_reduce", "psum_scatter", "reduce_scatter", "ppermute",
               "all_to_all"}


def _inputs():
    n = jax.device_count()
    rng = np.random.default_rng(0)
    params = {"w": rng.normal(size=D).astype(np.float32), "b": np.float32(0.1)}
    xs = rng.normal(size=(n, PER_DEVICE, D)).astype(np.float32)
    ys = rng.normal(size=(n, PER_DEVICE)).astype(np.float32)
    return params, xs, ys


def _whole_batch_grad(params, xs, ys):
    # Gradient of the mean loss over every example, written out by hand.
    xs, ys = xs.reshape(-1, D), ys.reshape(-1)
    residual = xs @ params["w"] + params["b"] - ys
    return {"w": 2.0 * (residual[:, None] * xs).mean(axis=0), "b": np.float32(2.0 * residual.mean())}


def test_every_device_gets_the_whole_batch_gradient(exercise):
    params, xs, ys = _inputs()
    grads = exercise.parallel_grads(params, xs, ys)
    want = _whole_batch_grad(params, xs, ys)
    n = jax.device_count()
    stacked = {k: np.broadcast_to(v, (n, *np.shape(v))) for k, v in want.items()}
    checks.assert_close(grads, stacked, what="parallel_grads(params, xs, ys)", rtol=1e-4, atol=1e-5,
                        hint="Every row should be the gradient of the whole batch: average the per-device "
                             "gradients with lax.pmean(grads, axis_name) inside the pmapped function (psum "
                             "alone adds them up; no collective leaves each device its own shard's gradient).")


def test_gradients_are_identical_on_every_device(exercise):
    grads = exercise.parallel_grads(*_inputs())
    if not isinstance(grads, dict):
        checks.fail(f"parallel_grads returned a {type(grads).__name__}; expected a dict like params.")
    for name, leaf in grads.items():
        what = f"parallel_grads(...)[{name!r}]"
        checks.assert_split_over_devices(leaf, what=what,
                                         hint="Each device keeps its own copy: return the pmean result from "
                                              "inside jax.pmap.")
        shards = sorted(leaf.addressable_shards, key=lambda s: s.device.id)
        first = np.asarray(shards[0].data)
        for shard in shards[1:]:
            if not np.array_equal(np.asarray(shard.data), first):
                checks.fail(f"{what}: device {shard.device.id} holds {np.asarray(shard.data).ravel()}, device "
                            f"{shards[0].device.id} holds {first.ravel()}. After a collective (lax.pmean / "
                            f"lax.psum over the pmap axis_name) every device holds the same values, so every "
                            f"device can take the same update step. "
                            f"See https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html")


def test_devices_average_with_a_collective(exercise):
    try:
        primitives = set(checks.jaxpr_primitives(exercise.parallel_grads, *_inputs()))
    except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError):
        primitives = set()  # it pulls values to the host: no collective could be doing the averaging
    if not primitives & COLLECTIVES:
        checks.fail("parallel_grads averages the gradients without a collective across devices (no "
                    "psum/pmean/all_gather in its traced program): gathering per-device results to "
                    "average them outside pmap is a round trip through one place. Name the device axis "
                    "(jax.pmap(..., axis_name='devices')) and call lax.pmean(grads, 'devices') inside. "
                    "See https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html")
