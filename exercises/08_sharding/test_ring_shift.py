"""Checks for sharding-6 (ring_shift)."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

BLOCK = 2
COLLECTIVES = {"ppermute", "all_gather", "all_to_all", "psum", "psum_invariant"}


def setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    host = np.arange(n * BLOCK * 3, dtype=np.float32).reshape(n * BLOCK, 3)
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def test_matches_roll_by_one_block(exercise):
    mesh, host, x = setup()
    out = exercise.ring_shift(x, mesh)
    checks.assert_close(
        out, np.roll(host, BLOCK, axis=0), what="ring_shift(x, mesh)",
        hint="Device i's block should land on device i + 1 and the last block on device 0: "
             "ppermute pairs are (source, destination) = (i, (i + 1) % n). Rolling inside each "
             "block moves rows, not blocks.")


def test_result_stays_split_over_data(exercise):
    mesh, _, x = setup()
    out = exercise.ring_shift(x, mesh)
    checks.assert_sharding(
        out, spec=("data",), shard_shape=(BLOCK, 3), n_devices=jax.device_count(),
        what="ring_shift(x, mesh)",
        hint="out_specs=P('data') keeps one block per device; gathering the array (to the host "
             "or one device) to roll it defeats the point of a ring.")


def test_blocks_move_by_a_collective_in_shard_map(exercise):
    mesh, _, x = setup()
    used = checks.jaxpr_primitives(lambda v: exercise.ring_shift(v, mesh), x)
    if "shard_map" not in used or not COLLECTIVES & set(used):
        checks.fail(
            f"ring_shift traces to {sorted(set(used))}: expected a jax.shard_map whose per-device "
            f"program sends blocks between devices (lax.ppermute). See "
            f"{checks.DOCS}/notebooks/shard_map.html")
