"""Checks for explicit-1 (mesh_in_context)."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

COLUMNS = 3
SET_MESH_DOCS = f"{checks.DOCS}/_autosummary/jax.set_mesh.html"


def _batch(rows: int) -> np.ndarray:
    return (np.arange(rows * COLUMNS, dtype=np.float32).reshape(rows, COLUMNS) * 0.5) - 3.0


def _placed_under(exercise, mesh, rows: int, what: str) -> jax.Array:
    host = _batch(rows)
    with jax.set_mesh(mesh):
        out = exercise.shard_batch(host)
    if not isinstance(out, jax.Array):
        checks.fail(f"{what} returned a {type(out).__name__}, not a jax.Array: the batch never reached "
                    f"the devices.", "host-transfer")
    checks.assert_close(out, host, what=what, hint="shard_batch places the batch; it should not change it.")
    return out


def _on_the_callers_mesh(out: jax.Array, mesh, what: str) -> None:
    want = NamedSharding(mesh, P("data"))
    if out.sharding.is_equivalent_to(want, out.ndim):
        return
    spec = getattr(out.sharding, "spec", None)
    theirs = getattr(out.sharding, "mesh", None)
    if spec is not None and tuple(spec)[:1] == ("data",) and theirs is not None and theirs != mesh:
        checks.fail(f"{what}: the rows are split over a mesh of your own ({theirs}), not the caller's "
                    f"current mesh ({mesh}): {_layout_difference(out, want)}. Code written for "
                    f"jax.set_mesh reads the mesh its caller set, it does not build one. "
                    f"See {SET_MESH_DOCS}", "wrong-sharding", checks.picture(want, out))
    checks.fail(f"{what} has sharding {out.sharding} (type {jax.typeof(out)}); expected the rows split over "
                f"the current mesh's axis 'data', PartitionSpec('data'), and copies along any other mesh "
                f"axis. See {SET_MESH_DOCS}", "wrong-sharding", checks.picture(want, out))


def _layout_difference(out: jax.Array, want: NamedSharding) -> str:
    """What the learner's own mesh does differently with the rows: where the first block goes, else
    how many rows a block holds."""
    first = next(s.device.id for s in out.addressable_shards if s.index[0].start in (0, None))
    callers = sorted(d.id for d, index in want.devices_indices_map(out.shape).items()
                     if index[0].start in (0, None))
    if first not in callers:
        return (f"the first block of rows sits on device {first} where the caller's mesh puts it on "
                f"device {' and '.join(map(str, callers))}")
    rows, wanted = out.sharding.shard_shape(out.shape)[0], want.shard_shape(out.shape)[0]
    if rows != wanted:
        return (f"each block holds {rows} row{'' if rows == 1 else 's'} where the caller's mesh, "
                f"{want.mesh.shape['data']} devices along 'data', gives each block {wanted}")
    return "its blocks of rows land on other devices than the caller's mesh puts them on"


def test_rows_are_split_over_the_callers_mesh(exercise):
    # The caller's mesh lists the devices shuffled: a mesh built inside shard_batch does not.
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    out = _placed_under(exercise, mesh, 2 * n, "with jax.set_mesh(mesh): shard_batch(x)")
    _on_the_callers_mesh(out, mesh, "shard_batch(x)")
    if str(jax.typeof(out)) != f"float32[{2 * n}@data,{COLUMNS}]":
        checks.fail(f"jax.typeof(shard_batch(x)) is {jax.typeof(out)}; expected float32[{2 * n}@data,"
                    f"{COLUMNS}]: on the Explicit mesh the split belongs in the array's type.",
                    "wrong-sharding")


def check_two_axis_mesh(exercise) -> None:
    """Module level so on_devices can rerun it: a (n/2, 2) mesh whose 'model' axis holds copies."""
    n = jax.device_count()
    mesh = checks.handed_mesh((n // 2, 2), ("data", "model"))
    out = _placed_under(exercise, mesh, n, "with jax.set_mesh(2-D mesh): shard_batch(x)")
    _on_the_callers_mesh(out, mesh, "shard_batch(x) on a ('data', 'model') mesh")
    checks.assert_sharding(out, what="shard_batch(x) on a ('data', 'model') mesh", shard_shape=(2, COLUMNS),
                           n_devices=n, hint="Rows split over 'data' only; each pair of 'model' devices "
                                             "holds the same block.")


def test_other_mesh_axes_hold_copies(exercise):
    check_two_axis_mesh(exercise)


@pytest.mark.devices(4)
def test_follows_the_mesh_with_4_devices(exercise):
    checks.on_devices(4, check_two_axis_mesh, exercise)
