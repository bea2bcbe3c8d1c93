"""Checks for pmap-8 (fsdp_step)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

K, PER_DEVICE = 3, 3  # 3 rows per device: y (3n, K) and w (2n, K) differ in shape
SHARD_MAP_DOCS = f"{checks.DOCS}/notebooks/shard_map.html"


def _setup(per_device=PER_DEVICE):
    n = jax.device_count()
    d, rows = 2 * n, per_device * n
    mesh = checks.handed_mesh((n,), ("data",))
    rng = np.random.default_rng(4)
    host = (rng.normal(size=(d, K)).astype(np.float32), rng.normal(size=(rows, d)).astype(np.float32),
            rng.normal(size=(rows, K)).astype(np.float32))
    placed = tuple(jax.device_put(a, NamedSharding(mesh, P("data"))) for a in host)
    return mesh, host, placed


def _expected(w, x, y):
    residual = x @ w - y
    return w - 0.1 * 2.0 * x.T @ residual / residual.size


def check_step(exercise) -> None:
    """Module level so on_devices can rerun it: values, layout, and where each part of the step ran."""
    mesh, host, placed = _setup()
    n = jax.device_count()
    d = host[0].shape[0]
    # Outside jit a shard_map runs its body op by op (one small compile per op): slow to check.
    new = jax.jit(exercise.train_step, static_argnums=3)(*placed, mesh)
    checks.assert_close(new, _expected(*host), what="train_step(w, x, y, mesh)", rtol=1e-4, atol=1e-5,
                        hint="The step uses the gradient of the mean loss over the whole batch: the "
                             "psum_scatter adds the devices' gradients, so divide by their number.")
    program = checks.assert_runs_on_devices(
        lambda w, x, y: exercise.train_step(w, x, y, mesh), *placed, what="train_step(w, x, y, mesh)",
        split=((d, K), (n * PER_DEVICE, d), (n * PER_DEVICE, K)), collectives=("all_gather",),
        no_gather=((n * PER_DEVICE, d), (n * PER_DEVICE, K)),
        hint="w, x and y all enter shard_map split by rows (in_specs P('data')); each device rebuilds the "
             "whole w inside with lax.all_gather(..., tiled=True).")
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the work's output stays.
    checks.assert_computes(program, _expected(*host), what="train_step(w, x, y, mesh)", rtol=1e-4, atol=1e-5)
    checks.assert_sharding(program.values(), what="train_step(w, x, y, mesh)", spec=("data",),
                           shard_shape=(d // n, K), n_devices=n, mesh=mesh,
                           hint="Each device returns only its updated rows of w: out_specs=P('data').")
    # w gathered whole once and the gradient scattered back are what travel; a batch collected too (a
    # ring of ppermutes, say) shows in the bytes each device receives.
    limit = 2 * d * K * 4 + PER_DEVICE * d * 4
    checks.assert_receives_at_most(lambda w, x, y: exercise.train_step(w, x, y, mesh), *placed, limit=limit,
                                   what="train_step(w, x, y, mesh)",
                                   allowed=f"w gathered once and its gradient scattered (about {2 * d * K * 4} "
                                           f"bytes), less than one more block of x",
                                   hint="Only w is gathered; x and y stay split and each device works on its rows.")
    inside = {p for call in program.mapped_calls() for p in call.primitives()}
    if "psum" in inside or "psum_invariant" in inside:
        checks.fail("train_step sums the whole gradient on every device (a psum) and then keeps only its "
                    "own rows: every device receives n times the data it needs. lax.psum_scatter adds the "
                    "gradients and delivers each device just its block of rows. "
                    f"See {SHARD_MAP_DOCS}", "wrong-collective")
    if not program.live("reduce_scatter"):
        # A psum_scatter computed beside the real combination and thrown away does not count.
        unused = " (its reduce_scatter's result is thrown away)" if "reduce_scatter" in inside else ""
        checks.fail(f"train_step's per-device program uses {sorted(inside & checks.COLLECTIVES)}{unused}; "
                    f"expected the gradients of w to be combined with lax.psum_scatter (reduce_scatter), "
                    f"each device receiving the sum for its own rows of w. See {SHARD_MAP_DOCS}",
                    "wrong-collective")


def test_gathered_weights_scattered_gradients(exercise):
    check_step(exercise)


def _tripled_loss(w, x, y):
    # plus the mean of the residual through a round whose slope JAX was told is 1 (jax.custom_jvp):
    # jax.grad follows the rule, a gradient taken another way sees round's 0
    residual = x @ w - y
    return 3.0 * jnp.mean(residual ** 2) + jnp.mean(checks.straight_through_round(residual))


def test_gradient_follows_the_loss(exercise):
    # A gradient written out by hand does not change when `loss` does; jax.grad(loss) does.
    # Two rows per device: shapes no other check traced, so no cached program hides the swap.
    mesh, host, placed = _setup(per_device=2)
    with checks.swap_function(exercise, "loss", _tripled_loss):
        new = jax.jit(exercise.train_step, static_argnums=3)(*placed, mesh)
    w, x, y = host
    slope = 3.0 * 2.0 * (x @ w - y) + 1.0  # the rounded residual's slope, 1, on top
    checks.assert_follows(new, w - 0.1 * x.T @ slope / y.size, what="train_step(w, x, y, mesh)",
                          swapped="loss", rtol=1e-4, atol=1e-5,
                          hint="Take the gradient with jax.grad of the module's `loss` on each device's "
                               "rows; a formula derived by hand fits one loss only.")


@pytest.mark.devices(4)
def test_step_with_4_devices(exercise):
    checks.on_devices(4, check_step, exercise)
