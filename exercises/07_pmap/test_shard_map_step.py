"""Checks for pmap-6 (shard_map_step)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

# More rows per device than the gradient has values (D + 1), so a gather of every device's gradient
# is smaller than y: only a gather of the batch is as large as one of its arrays.
D, PER_DEVICE = 3, 6
SHARD_MAP_DOCS = f"{checks.DOCS}/notebooks/shard_map.html"
AVERAGING = ("psum", "psum_invariant", "all_gather", "all_gather_invariant", "reduce_scatter")


def _setup(exercise, per_device=PER_DEVICE):
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    rng = np.random.default_rng(1)
    host = ({"w": rng.normal(size=D).astype(np.float32), "b": np.float32(0.3)},
            rng.normal(size=(n * per_device, D)).astype(np.float32),
            rng.normal(size=(n * per_device,)).astype(np.float32))
    rows = NamedSharding(mesh, P("data"))
    placed = (jax.device_put(host[0], NamedSharding(mesh, P())), jax.device_put(host[1], rows),
              jax.device_put(host[2], rows))
    return mesh, host, placed


def _expected(params, x, y, scale=1.0, rounded=False):
    """The step's new params; `rounded`: for `_tripled_loss`, whose rounded residual adds a slope of 1."""
    residual = x @ params["w"] + params["b"] - y
    slope = scale * 2.0 * residual + (1.0 if rounded else 0.0)
    grad_w = (slope[:, None] * x).mean(axis=0)
    grad_b = slope.mean()
    return {"w": params["w"] - 0.1 * grad_w, "b": np.float32(params["b"] - 0.1 * grad_b)}


def _replicated(new, what):
    if not isinstance(new, dict) or set(new) != {"w", "b"}:
        checks.fail(f"{what} returned {type(new).__name__}; expected a dict like params.", "wrong-shape")
    for name, leaf in new.items():
        checks.assert_replicated(leaf, what=f"{what}['{name}']",
                                 hint="out_specs=P() returns the averaged update as one replicated array.")


def _jitted(exercise):
    # Outside jit a shard_map runs its body op by op (one small compile per op): slow to check.
    return jax.jit(exercise.train_step, static_argnums=3)


def _call(exercise, placed, mesh):
    try:
        return _jitted(exercise)(*placed, mesh)
    except KeyError as error:
        if not (error.args and error.args[0] in mesh.axis_names):
            raise
        checks.fail(f"train_step raised KeyError: {error.args[0]!r}. jax.pmap builds a mesh of its own and "
                    f"cannot take arrays whose type says they are split over another mesh's axis "
                    f"{error.args[0]!r}. pmap is the legacy API: run the per-device function with "
                    f"jax.shard_map(..., mesh=mesh) on the arrays as they are. See {SHARD_MAP_DOCS}",
                    "wrong-tool")


def check_step(exercise) -> None:
    """Module level so on_devices can rerun it: the values, and the step run per device on the given mesh."""
    mesh, host, placed = _setup(exercise)
    n = jax.device_count()
    what = "train_step(params, x, y, mesh)"
    new = _call(exercise, placed, mesh)
    if isinstance(new, dict) and set(new) == {"w", "b"} and np.allclose(
            np.asarray(new["w"]), _expected(*host, scale=n)["w"], rtol=1e-4, atol=1e-5):
        checks.fail(f"train_step's step is {n} times too large: the gradient it applies is the sum of the "
                    f"{n} devices' gradients, not their mean. Inside shard_map the gradient with respect to "
                    f"the replicated params already comes back summed over the devices, so a pmean of it "
                    f"(pmap's recipe) keeps the sum. Average the loss over 'data' and differentiate that. "
                    f"See {SHARD_MAP_DOCS}")
    checks.assert_close(new, _expected(*host), what=what, rtol=1e-4, atol=1e-5,
                        hint="Every device should apply the gradient of the whole batch's mean loss, not one "
                             "device's own gradient and not the sum over devices.")
    program = checks.program_of(lambda p, x, y: exercise.train_step(p, x, y, mesh), *placed, what=what)
    # The program read is run here and must give the step's values; where its result lives (the
    # examiner's run, not the call's own word) shows the update comes back replicated.
    checks.assert_computes(program, _expected(*host), what=what, rtol=1e-4, atol=1e-5)
    _replicated(program.values(), what)
    foreign = [c for c in program.mapped_calls() if c.eqn.params.get("mesh") != mesh]
    if foreign:
        names = sorted(foreign[0].axis_sizes)
        checks.fail(f"train_step maps its work over a mesh it made itself (axis {names}), not over the mesh "
                    f"it was given: that is what jax.pmap does (pmap builds its own one-axis mesh and needs a "
                    f"stacked (devices, per_device, ...) batch). pmap is the legacy API; write the step with "
                    f"jax.shard_map(..., mesh=mesh) on the global arrays. See {SHARD_MAP_DOCS}", "wrong-tool")
    program = checks.assert_runs_on_devices(
        lambda p, x, y: exercise.train_step(p, x, y, mesh), *placed, what=what,
        work=("dot_general",), split=((n * PER_DEVICE, D), (n * PER_DEVICE,)), collectives=AVERAGING,
        no_gather=((n * PER_DEVICE, D), (n * PER_DEVICE,)),
        hint="Give shard_map in_specs=P('data') for x and y, so each device sees only its own rows, and "
             "combine the devices' work inside it.")
    checks.assert_computes(program, _expected(*host), what=what, rtol=1e-4, atol=1e-5)
    # However the batch is collected (an all_gather, a ring of ppermutes), the bytes each device
    # receives show it: averaging gradients needs at most every device's gradient, less than the batch.
    n = jax.device_count()
    block = n * (D + 1) * 4
    checks.assert_receives_at_most(lambda p, x, y: exercise.train_step(p, x, y, mesh), *placed, limit=block,
                                   what=what, allowed=f"every device's gradient at most ({block} bytes)",
                                   hint="Each device differentiates its own rows; only gradients travel.")


def test_each_device_steps_on_its_rows(exercise):
    check_step(exercise)


def _tripled_loss(params, x, y):
    # plus the mean of the residual through a round whose slope JAX was told is 1 (jax.custom_jvp):
    # jax.grad follows the rule, a gradient taken another way sees round's 0
    residual = x @ params["w"] + params["b"] - y
    return 3.0 * jnp.mean(residual ** 2) + jnp.mean(checks.straight_through_round(residual))


def test_gradient_follows_the_loss(exercise):
    # A gradient written out by hand does not change when `loss` does; jax.grad(loss) does.
    # Three rows per device: shapes no other check traced, so no cached program hides the swap.
    mesh, host, placed = _setup(exercise, per_device=3)
    with checks.swap_function(exercise, "loss", _tripled_loss):
        new = _call(exercise, placed, mesh)
    checks.assert_follows(new, _expected(*host, scale=3.0, rounded=True), what="train_step(params, x, y, mesh)",
                          swapped="loss", rtol=1e-4, atol=1e-5,
                          hint="Take the gradient with jax.grad of the module's `loss` inside the "
                               "per-device function; a formula derived by hand fits one loss only.")


@pytest.mark.devices(4)
def test_step_with_4_devices(exercise):
    checks.on_devices(4, check_step, exercise)
