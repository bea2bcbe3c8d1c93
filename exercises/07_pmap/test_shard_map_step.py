"""Checks for pmap-6 (shard_map_step)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

D, PER_DEVICE = 3, 2
SHARD_MAP_DOCS = f"{checks.DOCS}/notebooks/shard_map.html"
AVERAGING = ("psum", "psum_invariant", "all_gather", "all_gather_invariant", "reduce_scatter")


def _setup(exercise):
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    rng = np.random.default_rng(1)
    host = ({"w": rng.normal(size=D).astype(np.float32), "b": np.float32(0.3)},
            rng.normal(size=(n * PER_DEVICE, D)).astype(np.float32),
            rng.normal(size=(n * PER_DEVICE,)).astype(np.float32))
    rows = NamedSharding(mesh, P("data"))
    placed = (jax.device_put(host[0], NamedSharding(mesh, P())), jax.device_put(host[1], rows),
              jax.device_put(host[2], rows))
    return mesh, host, placed


def _expected(params, x, y, scale=1.0):
    residual = x @ params["w"] + params["b"] - y
    grad_w = scale * 2.0 * (residual[:, None] * x).mean(axis=0)
    grad_b = scale * 2.0 * residual.mean()
    return {"w": params["w"] - 0.1 * grad_w, "b": np.float32(params["b"] - 0.1 * grad_b)}


def _replicated(new, what):
    if not isinstance(new, dict) or set(new) != {"w", "b"}:
        checks.fail(f"{what} returned {type(new).__name__}; expected a dict like params.", "wrong-shape")
    for name, leaf in new.items():
        checks.assert_replicated(leaf, what=f"{what}['{name}']",
                                 hint="out_specs=P() returns the averaged update as one replicated array.")


def check_step(exercise) -> None:
    """Module level so on_devices can rerun it: the values, and the step run per device on the given mesh."""
    mesh, host, placed = _setup(exercise)
    n = jax.device_count()
    new = exercise.train_step(*placed, mesh)
    checks.assert_close(new, _expected(*host), what="train_step(params, x, y, mesh)", rtol=1e-4, atol=1e-5,
                        hint="Every device should apply the gradient of the whole batch: the mean of the "
                             "per-device gradients (lax.pmean), not their sum, not one device's own.")
    _replicated(new, "train_step(params, x, y, mesh)")
    program = checks.assert_runs_on_devices(
        lambda p, x, y: exercise.train_step(p, x, y, mesh), *placed, what="train_step(params, x, y, mesh)",
        work=("dot_general",), split=((n * PER_DEVICE, D), (n * PER_DEVICE,)), collectives=AVERAGING,
        hint="Give shard_map in_specs=P('data') for x and y, so each device sees only its own rows, and "
             "average the gradients inside it.")
    foreign = [c for c in program.mapped_calls() if c.eqn.params.get("mesh") != mesh]
    if foreign:
        names = sorted(foreign[0].axis_sizes)
        checks.fail(f"train_step maps its work over a mesh it made itself (axis {names}), not over the mesh "
                    f"it was given: that is what jax.pmap does (pmap builds its own one-axis mesh and needs a "
                    f"stacked (devices, per_device, ...) batch). pmap is the legacy API; write the step with "
                    f"jax.shard_map(..., mesh=mesh) on the global arrays. See {SHARD_MAP_DOCS}", "wrong-tool")


def test_each_device_steps_on_its_rows(exercise):
    check_step(exercise)


def test_gradient_follows_the_loss(exercise):
    # A gradient written out by hand does not change when `loss` does; jax.grad(loss) does.
    mesh, host, placed = _setup(exercise)
    original = exercise.loss
    exercise.module.loss = lambda p, x, y: 3.0 * original(p, x, y) + 0.0 * jnp.sum(p["w"])
    try:
        new = exercise.train_step(*placed, mesh)
    finally:
        exercise.module.loss = original
    got = np.asarray(new["w"])
    if not np.allclose(got, _expected(*host, scale=3.0)["w"], rtol=1e-4, atol=1e-5):
        checks.fail(f"with loss replaced by 3 * loss, train_step's new w is {checks.short(got)}; expected "
                    f"{checks.short(_expected(*host, scale=3.0)['w'])}. The update does not follow the module's "
                    f"`loss`: a gradient written out by hand (or read from elsewhere) instead of "
                    f"jax.grad(loss) inside the per-device function.", "wrong-tool")


@pytest.mark.devices(4)
def test_step_with_4_devices(exercise):
    checks.on_devices(4, check_step, exercise)
