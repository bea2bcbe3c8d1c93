"""Checks for sharding-6 (ring_shift)."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

BLOCK = 2
SHARD_MAP_DOCS = f"{checks.DOCS}/notebooks/shard_map.html"
# Collectives that move every block to every device (or add them up): the answer a ring avoids.
GATHERING = ("all_gather", "all_gather_invariant", "all_to_all", "psum", "psum_invariant", "psum_scatter",
             "reduce_scatter")
RING_HINT = ("In a ring each device only sends its block to its neighbour (lax.ppermute with (source, "
             "destination) pairs); gathering every block on every device gives the same numbers but moves "
             "n times the data, which is what the ring exists to avoid.")


def setup():
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    host = np.arange(n * BLOCK * 3, dtype=np.float32).reshape(n * BLOCK, 3)
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def test_matches_roll_by_one_block(exercise):
    mesh, host, x = setup()
    out = exercise.ring_shift(x, mesh)
    checks.assert_close(
        out, np.roll(host, BLOCK, axis=0), what="ring_shift(x, mesh)",
        hint="Device i's block should land on device i + 1 and the last block on device 0; ppermute "
             "pairs read (source, destination). Rolling inside each block moves rows, not blocks.")


def test_result_stays_split_over_data(exercise):
    mesh, _, x = setup()
    out = exercise.ring_shift(x, mesh)
    checks.assert_sharding(
        out, spec=("data",), shard_shape=(BLOCK, 3), n_devices=jax.device_count(), mesh=mesh,
        what="ring_shift(x, mesh)",
        hint="out_specs that split over 'data' keep one block per device; gathering the array (to the host "
             "or one device) to roll it defeats the point of a ring.")


def test_blocks_move_by_a_collective_in_shard_map(exercise):
    mesh, host, x = setup()
    n = jax.device_count()
    what = "ring_shift(x, mesh)"
    shift = lambda v: exercise.ring_shift(v, mesh)  # noqa: E731 - the program of this call
    program = checks.program_of(shift, x, what=what)
    # The program read below is the one that shifts the blocks, not one shown only when traced.
    shifted = np.roll(host, BLOCK, axis=0)
    checks.assert_computes(program, shifted, what=what)
    if not program.mapped_calls():
        checks.fail(f"{what} traces to {sorted(set(program.primitives()))}: there is no jax.shard_map, so no "
                    f"per-device program sends a block anywhere. A roll of the global array leaves the "
                    f"data movement to the compiler (or the host); the task is to write it per device. "
                    f"See {SHARD_MAP_DOCS}", "wrong-tool")
    program = checks.assert_runs_on_devices(shift, x, what=what, split=((n * BLOCK, 3),),
                                            no_collectives=GATHERING, hint=RING_HINT)
    checks.assert_computes(program, shifted, what=what)
    if not program.has("ppermute"):
        checks.fail(f"{what}: the per-device program sends nothing to another device (no lax.ppermute): "
                    f"each device can only reach its neighbour's block through a collective. {RING_HINT} "
                    f"See {SHARD_MAP_DOCS}", "wrong-collective")
    if not program.live("ppermute"):
        checks.fail(f"{what}: the per-device program calls lax.ppermute, but the result does not follow "
                    f"it: what it sends is thrown away or folded in where it can never change the values, "
                    f"and the blocks reach their places another way (a roll of the global array, which "
                    f"leaves the moving to the compiler). {RING_HINT} See {SHARD_MAP_DOCS}", "wrong-collective")
    # What moved, whatever moved it: a ring hands each device one block. A gather made of n - 1
    # ppermutes, or a reshard to replicated beside a decoy ppermute, hands it all of them.
    block = BLOCK * 3 * np.dtype(np.float32).itemsize
    checks.assert_receives_at_most(shift, x, limit=1.5 * block, what=what,
                                   allowed=f"its neighbour's one block ({block} bytes)", hint=RING_HINT)


def shifted_round_the_ring(exercise):
    """The three checks above, as one function `on_devices` can rerun with 4 devices."""
    test_matches_roll_by_one_block(exercise)
    test_result_stays_split_over_data(exercise)
    test_blocks_move_by_a_collective_in_shard_map(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, shifted_round_the_ring, exercise)
