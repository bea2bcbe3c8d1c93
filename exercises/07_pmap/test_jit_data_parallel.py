"""Checks for pmap-7 (jit_data_parallel)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

D, PER_DEVICE = 3, 2
PARTITION_DOCS = f"{checks.DOCS}/notebooks/Distributed_arrays_and_automatic_parallelization.html"


def _host(per_device=PER_DEVICE):
    n = jax.device_count()
    rng = np.random.default_rng(2)
    return ({"w": rng.normal(size=D).astype(np.float32), "b": np.float32(-0.2)},
            rng.normal(size=(n * per_device, D)).astype(np.float32),
            rng.normal(size=(n * per_device,)).astype(np.float32))


def _placed(exercise, with_mesh=False):
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))  # a mesh place() builds for itself misplaces the rows
    host = _host()
    placed = exercise.place(*host, mesh)
    if not isinstance(placed, tuple) or len(placed) != 3:
        checks.fail(f"place(params, x, y, mesh) returned {type(placed).__name__}; expected the triple "
                    f"(params, x, y).", "wrong-shape")
    return (host, placed, mesh) if with_mesh else (host, placed)


def _expected(params, x, y, scale=1.0, rounded=False):
    """The step's new params; `rounded`: for `_tripled_loss`, whose rounded residual adds a slope of 1."""
    residual = x @ params["w"] + params["b"] - y
    slope = scale * 2.0 * residual + (1.0 if rounded else 0.0)
    return {"w": params["w"] - 0.1 * (slope[:, None] * x).mean(axis=0),
            "b": np.float32(params["b"] - 0.1 * slope.mean())}


def test_place_splits_the_batch_and_copies_the_params(exercise):
    host, (params, x, y), mesh = _placed(exercise, with_mesh=True)
    n = jax.device_count()
    checks.assert_close((params, x, y), host, what="place(params, x, y, mesh)",
                        hint="place only puts the arrays on the mesh; it does not change them.")
    for name, value, shard in (("x", x, (PER_DEVICE, D)), ("y", y, (PER_DEVICE,))):
        checks.assert_sharding(value, what=f"place(...)'s {name}", spec=("data",), shard_shape=shard, n_devices=n,
                               mesh=mesh, hint="NamedSharding(mesh, P('data')) splits the rows over the mesh axis.")
    for name, leaf in params.items():
        checks.assert_sharding(leaf, what=f"place(...)'s params['{name}']", n_devices=n,
                               hint="Every device needs all of the params: NamedSharding(mesh, P()).")
        checks.assert_replicated(leaf, what=f"place(...)'s params['{name}']")


def test_step_on_the_placed_batch(exercise):
    host, placed = _placed(exercise)
    # The whole step is one program: a jitted gradient with the update applied eagerly around it is not.
    checks.assert_jitted(exercise.train_step, *placed, what="train_step(params, x, y)", entirely=True,
                         single=True, expected=_expected(*host), rtol=1e-4, atol=1e-5)
    new = exercise.train_step(*placed)
    checks.assert_close(new, _expected(*host), what="train_step(*place(...))", rtol=1e-4, atol=1e-5,
                        hint="One step: params - LR * jax.grad(loss)(params, x, y), over the whole batch.")
    # Where the update lives is read from the step's program run here, not from the call's own word.
    program = checks.program_of(exercise.train_step, *placed, what="train_step(params, x, y)")
    checks.assert_computes(program, _expected(*host), what="train_step(params, x, y)", rtol=1e-4, atol=1e-5)
    for name, leaf in program.values().items():
        checks.assert_replicated(leaf, what=f"train_step(...)['{name}']",
                                 hint="Replicated params in, replicated params out: every device applies the "
                                      "same update.")


def test_compiler_partitions_the_step(exercise):
    host, placed = _placed(exercise)
    n = jax.device_count()
    program = checks.program_of(exercise.train_step, *placed, what="train_step(params, x, y)")
    checks.assert_computes(program, _expected(*host), what="train_step(params, x, y)", rtol=1e-4, atol=1e-5)
    if program.mapped_calls():
        checks.fail("train_step contains a shard_map (or pmap): that is the per-device program written by "
                    "hand, the previous exercise. Here write the step for the whole batch and let jit's "
                    f"partitioner derive the per-device programs from the arguments' shardings. "
                    f"See {PARTITION_DOCS}", "wrong-tool")
    compiled = checks.compiled_program(exercise.train_step, *placed, what="train_step(params, x, y)")
    shapes = compiled.parameter_shapes()
    if (PER_DEVICE, D) not in shapes or (n * PER_DEVICE, D) in shapes:
        checks.fail(f"the compiled train_step takes per-device inputs of shapes {shapes}; expected x to "
                    f"arrive as ({PER_DEVICE}, {D}) blocks, its rows split over the {n} devices. Each device "
                    f"computes on the whole batch when x is not split.", "not-distributed")
    batch = {(n * PER_DEVICE, D), (n * PER_DEVICE,)}
    if any(op == "all-gather" and shape in batch for op, shape in compiled.collective_shapes()):
        checks.fail(f"the compiled train_step all-gathers the batch ({dict(compiled.collectives())}): x or y "
                    f"arrives split, then is copied whole onto every device, which computes the whole "
                    f"step itself. The split placement only helps if the program keeps it: write the step "
                    f"for the global arrays as they are, with no resharding of the batch. "
                    f"See {PARTITION_DOCS}", "not-distributed")
    # A gather of the batch under another shape (transposed, reshaped) shows in the bytes received.
    block = PER_DEVICE * (D + 1) * 4
    checks.assert_receives_at_most(exercise.train_step, *placed, limit=block, what="train_step(params, x, y)",
                                   allowed=f"the gradients' all-reduce, well under one block of the batch "
                                           f"({block} bytes)",
                                   hint="Write the step for the global arrays as they are, with no resharding "
                                        "of the batch.")
    if not compiled.collectives()["all-reduce"]:
        checks.fail(f"the compiled train_step has no all-reduce ({dict(compiled.collectives())}): with the "
                    f"batch split, the mean over all rows needs one. See {PARTITION_DOCS}", "wrong-collective")


def _tripled_loss(params, x, y):
    # plus the mean of the residual through a round whose slope JAX was told is 1 (jax.custom_jvp):
    # jax.grad follows the rule, a gradient taken another way sees round's 0
    residual = x @ params["w"] + params["b"] - y
    return 3.0 * jnp.mean(residual ** 2) + jnp.mean(checks.straight_through_round(residual))


def test_gradient_follows_the_loss(exercise):
    # A gradient written out by hand does not change when `loss` does; jax.grad(loss) does.
    # Three rows per device: shapes no other check traced, so no cached program hides the swap.
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    host = _host(per_device=3)
    rows = NamedSharding(mesh, P("data"))
    placed = (jax.device_put(host[0], NamedSharding(mesh, P())), jax.device_put(host[1], rows),
              jax.device_put(host[2], rows))
    with checks.swap_function(exercise, "loss", _tripled_loss):
        new = exercise.train_step(*placed)
    checks.assert_follows(new, _expected(*host, scale=3.0, rounded=True), what="train_step(params, x, y)", swapped="loss",
                          rtol=1e-4, atol=1e-5,
                          hint="The step's gradient should come from the module's `loss` through "
                               "autodiff; a formula derived by hand fits one loss only.")
