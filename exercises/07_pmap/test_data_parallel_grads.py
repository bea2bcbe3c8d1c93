"""Checks for pmap-4 (data_parallel_grads)."""


import jax
import numpy as np
import pytest

from grader import checks

REUSE_WHY = ("Build the pmapped function once, where it is defined (a module-level function, its "
             "unmapped arguments named with in_axes), and call that.")

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

# More rows per device than the gradient has values (D + 1), so a gather of every device's gradient,
# even flattened into one vector, is smaller than ys: only a gather of the batch is as large.
D, PER_DEVICE = 3, 6
PMAP_DOCS = f"{checks.DOCS}/_autosummary/jax.pmap.html"
COMBINING = ("psum", "psum_invariant", "all_gather", "all_gather_invariant", "psum_scatter",
             "reduce_scatter", "ppermute", "all_to_all")
WHAT = "parallel_grads(params, xs, ys)"


def _inputs():
    n = jax.device_count()
    rng = np.random.default_rng(0)
    params = {"w": rng.normal(size=D).astype(np.float32), "b": np.float32(0.1)}
    xs = rng.normal(size=(n, PER_DEVICE, D)).astype(np.float32)
    ys = rng.normal(size=(n, PER_DEVICE)).astype(np.float32)
    return params, xs, ys


def _whole_batch_grad(params, xs, ys, power=2, rounded=False):
    # Gradient of the mean of residual**power over every example, written out by hand (`rounded`: plus
    # the mean of the rounded residual, whose slope JAX is told is 1).
    xs, ys = xs.reshape(-1, D), ys.reshape(-1)
    residual = xs @ params["w"] + params["b"] - ys
    slope = power * residual ** (power - 1) + (1.0 if rounded else 0.0)
    return {"w": (slope[:, None] * xs).mean(axis=0), "b": np.float32(slope.mean())}


def _stacked(grads):
    n = jax.device_count()
    return {k: np.broadcast_to(v, (n, *np.shape(v))) for k, v in grads.items()}


def test_every_device_gets_the_whole_batch_gradient(exercise):
    params, xs, ys = _inputs()
    grads = exercise.parallel_grads(params, xs, ys)
    checks.assert_close(grads, _stacked(_whole_batch_grad(params, xs, ys)), what=WHAT, rtol=1e-4, atol=1e-5,
                        hint="Every row should be the gradient of the whole batch: the per-device gradients "
                             "must be averaged across the devices inside the pmapped function (a sum alone "
                             "is devices-times too big; no collective leaves each device its own shard's "
                             "gradient).")
    checks.assert_reuses_program(lambda: exercise.parallel_grads(params, xs, ys), what=WHAT,
                                 calls="2 more calls with the same shapes", why=REUSE_WHY)


def averaged_by_a_collective_on_the_devices(exercise):
    """Each device's shard, its gradient, one collective, the same rows everywhere (module level: rerun
    with 4 devices)."""
    params, xs, ys = _inputs()
    n = jax.device_count()
    grads = exercise.parallel_grads(params, xs, ys)
    if not isinstance(grads, dict):
        checks.fail(f"parallel_grads returned a {type(grads).__name__}; expected a dict like params.",
                    "wrong-shape")
    want = _stacked(_whole_batch_grad(params, xs, ys))
    checks.assert_close(grads, want, what=WHAT, rtol=1e-4, atol=1e-5)
    # Every device must see only its own shard of the batch (not all of it: that is not data parallel),
    # compute a gradient there, and combine the gradients with a collective.
    try:
        program = checks.assert_runs_on_devices(
            exercise.parallel_grads, params, xs, ys, what=WHAT, work=("dot_general",),
            split=((n, PER_DEVICE, D), (n, PER_DEVICE)), collectives=COMBINING,
            hint="Split xs and ys over the devices, give every device the same params, and average the "
                 "gradients with a collective over the pmap axis_name.")
    except checks.KataFailure as failure:
        if failure.code not in ("numpy-on-tracer", "traced-value"):
            raise
        checks.fail(f"{WHAT} pulls the gradients off the devices to average them ({failure}). Gathering "
                    f"per-device results in one place and sending the average back is a round trip; a "
                    f"collective over the named pmap axis averages them where they are. See {PMAP_DOCS}",
                    "host-transfer")
    # However the batch is collected (an all_gather, a ring of ppermutes), the bytes each device
    # receives show it: averaging gradients needs at most every device's gradient, less than the batch.
    n = jax.device_count()
    block = n * (D + 1) * 4
    checks.assert_receives_at_most(exercise.parallel_grads, params, xs, ys, limit=block, what=WHAT,
                                   allowed=f"every device's gradient at most ({block} bytes)",
                                   hint="Each device differentiates its own shard; only gradients travel.")
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the gradients stays.
    checks.assert_computes(program, want, what=WHAT, rtol=1e-4, atol=1e-5)
    for name, leaf in program.values().items():
        what = f"parallel_grads(...)[{name!r}]"
        checks.assert_split_over_devices(leaf, what=what,
                                         hint="Each device keeps its own copy: return the averaged gradient "
                                              "from inside jax.pmap.")
        shards = sorted(leaf.addressable_shards, key=lambda s: s.device.id)
        first = np.asarray(shards[0].data)
        for shard in shards[1:]:
            if not np.array_equal(np.asarray(shard.data), first):
                checks.fail(f"{what}: device {shard.device.id} holds {np.asarray(shard.data).ravel()}, device "
                            f"{shards[0].device.id} holds {first.ravel()}. After a collective over the pmap "
                            f"axis_name every device holds the same values, so every device can take the same "
                            f"update step. See {PMAP_DOCS}", "wrong-collective")


def test_devices_average_their_shard_gradients_with_a_collective(exercise):
    averaged_by_a_collective_on_the_devices(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, averaged_by_a_collective_on_the_devices, exercise)


def _quartic_loss(params, xs, ys):
    # plus the mean of the residual through a round whose slope JAX was told is 1 (jax.custom_jvp):
    # jax.grad follows the rule, a gradient taken another way sees round's 0
    residual = xs @ params["w"] + params["b"] - ys
    return ((residual ** 2) ** 2).mean() + checks.straight_through_round(residual).mean()


def test_gradient_follows_the_loss(exercise):
    # A gradient written out by hand fits one loss only; jax.grad(loss) follows whatever loss is.
    params, xs, ys = _inputs()
    with checks.swap_function(exercise, "loss", _quartic_loss):  # also seen through references taken at import
        grads = exercise.parallel_grads(params, xs, ys)
    want = _stacked(_whole_batch_grad(params, xs, ys, power=4, rounded=True))
    try:
        checks.assert_close(grads, want, what=WHAT, rtol=1e-4, atol=1e-5)
    except checks.KataFailure as failure:
        checks.fail(f"with the module's loss replaced by another (the mean fourth power of the error), "
                    f"{WHAT} did not return that loss's averaged gradient: {failure} The gradient must come "
                    f"from jax.grad applied to loss, which follows whatever loss is; a formula derived by "
                    f"hand fits one loss only. See {checks.DOCS}/automatic-differentiation.html", "wrong-tool")
