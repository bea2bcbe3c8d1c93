"""Checks for sharding-2 (shard_rows)."""

import jax
import numpy as np
import pytest

from grader import checks


def matrix() -> np.ndarray:
    n = jax.device_count()
    return np.arange(2 * n * 3, dtype=np.float32).reshape(2 * n, 3)


def test_rows_split_over_a_data_axis(exercise):
    x = matrix()
    out = exercise.shard_rows(x)
    checks.assert_sharding(
        out, spec=("data",), what="shard_rows(x)",
        hint="PartitionSpec('data') splits dimension 0 (rows) over the mesh axis named 'data'; "
             "P(None, 'data') would split columns and P() copies the whole array everywhere.")
    names = tuple(getattr(getattr(out.sharding, "mesh", None), "axis_names", ()))
    if names != ("data",):
        checks.fail(f"shard_rows(x) uses a mesh with axes {names}; expected a 1-D mesh whose one axis is "
                    f"named 'data', so that code written for it (P('data'), collectives over 'data') "
                    f"finds it. See {checks.DOCS}/sharded-computation.html", "wrong-sharding")


def test_each_device_holds_its_own_block_of_rows(exercise):
    x = matrix()
    n = jax.device_count()
    out = exercise.shard_rows(x)
    mesh = getattr(out.sharding, "mesh", None)
    if getattr(mesh, "size", None) == n:  # the mesh is right: the spec is what fails to split
        hint = (f"The mesh already spans all {n} devices; the PartitionSpec decides what each holds: "
                f"P('data') gives each device 2 of the {x.shape[0]} rows, P() copies the whole array "
                f"to every device.")
    else:
        hint = (f"With {x.shape[0]} rows over {n} devices each device holds 2 rows: build the mesh "
                f"over every device, jax.device_count() of them.")
    checks.assert_sharding(out, shard_shape=(2, 3), n_devices=n, what="shard_rows(x)", hint=hint)
    starts = []
    for shard in out.addressable_shards:
        checks.assert_close(shard.data, x[shard.index], what=f"the shard on device {shard.device.id}")
        starts.append(shard.index[0].start or 0)
    if sorted(starts) != list(range(0, x.shape[0], 2)):
        checks.fail(f"the shards start at rows {sorted(starts)}: every device should hold a "
                    f"different block of 2 rows.", "wrong-sharding")
    checks.assert_close(out, x, what="shard_rows(x)", hint="Sharding moves data; it never changes values.")


def split_over_every_device(exercise):
    """Both checks above, as one function `on_devices` can rerun with 4 devices."""
    test_rows_split_over_a_data_axis(exercise)
    test_each_device_holds_its_own_block_of_rows(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, split_over_every_device, exercise)
