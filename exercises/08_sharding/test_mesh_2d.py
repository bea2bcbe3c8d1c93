"""Checks for sharding-3 (mesh_2d)."""

import jax
import numpy as np
import pytest

from grader import checks

FEATURES = 6
HIDDEN = 4


def grid() -> tuple[int, int]:
    return jax.device_count() // 2, 2


def check_mesh():
    """The checks' own (data, model) mesh, so the sharding checks do not depend on make_mesh_2d: its
    devices in another order than make_mesh_2d's, so a function that ignores it is seen."""
    return checks.handed_mesh(grid(), ("data", "model"))


def positions(mesh) -> dict:
    """device -> (data index, model index) in the mesh grid."""
    return {mesh.devices[i, j]: (i, j) for i, j in np.ndindex(mesh.devices.shape)}


def test_mesh_is_data_by_model(exercise):
    mesh = exercise.make_mesh_2d()
    shape = dict(getattr(mesh, "shape", {}))
    want = dict(zip(("data", "model"), grid()))
    if tuple(getattr(mesh, "axis_names", ())) != ("data", "model") or shape != want:
        checks.fail(f"make_mesh_2d() returned a mesh of shape {shape}; expected {want} (axes in that "
                    f"order): 'data' gets half the device count, 'model' 2, so the grid holds every "
                    f"device. See {checks.DOCS}/sharded-computation.html", "wrong-sharding")
    used = sorted(d.id for d in mesh.devices.flat)
    if used != sorted(d.id for d in jax.devices()):
        checks.fail(f"make_mesh_2d() uses devices {used}: the mesh should hold every device once.",
                    "wrong-sharding")


def test_batch_rows_split_over_data_and_copied_over_model(exercise):
    rows, _ = grid()
    batch = np.arange(2 * rows * FEATURES, dtype=np.float32).reshape(2 * rows, FEATURES)
    mesh = check_mesh()
    out = exercise.shard_batch(batch, mesh)
    checks.assert_sharding(
        out, spec=("data", None), shard_shape=(2, FEATURES), n_devices=jax.device_count(), mesh=mesh,
        what="shard_batch(batch, mesh)",
        hint="P('data', None) splits rows over 'data'; leaving 'model' out of the spec copies each "
             "block to both devices of its mesh row.")
    where = positions(mesh)
    for shard in out.addressable_shards:
        i, j = where[shard.device]
        checks.assert_close(shard.data, batch[2 * i:2 * i + 2],
                            what=f"the batch shard on device {shard.device.id} (mesh position {i}, {j})",
                            hint="the device in mesh row i should hold the i-th block of rows.")


def test_weight_columns_split_over_model_and_copied_over_data(exercise):
    _, cols = grid()
    w = np.arange(FEATURES * HIDDEN, dtype=np.float32).reshape(FEATURES, HIDDEN)
    mesh = check_mesh()
    out = exercise.shard_weights(w, mesh)
    per = HIDDEN // cols
    checks.assert_sharding(
        out, spec=(None, "model"), shard_shape=(FEATURES, per), n_devices=jax.device_count(), mesh=mesh,
        what="shard_weights(w, mesh)",
        hint="P(None, 'model') splits columns (the output features) over 'model' and copies them "
             "along 'data'; splitting rows would cut the dimension the matmul sums over.")
    where = positions(mesh)
    for shard in out.addressable_shards:
        i, j = where[shard.device]
        checks.assert_close(shard.data, w[:, per * j:per * j + per],
                            what=f"the weight shard on device {shard.device.id} (mesh position {i}, {j})",
                            hint="the device in mesh column j should hold the j-th block of columns.")


def laid_out_on_the_grid(exercise):
    """The three checks above, as one function `on_devices` can rerun with 4 devices."""
    test_mesh_is_data_by_model(exercise)
    test_batch_rows_split_over_data_and_copied_over_model(exercise)
    test_weight_columns_split_over_model_and_copied_over_data(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, laid_out_on_the_grid, exercise)
