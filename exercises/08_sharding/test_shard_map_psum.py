"""Checks for sharding-5 (shard_map_psum)."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

BLOCK = 3
COLLECTIVES = ("psum", "psum_invariant", "all_gather", "all_gather_invariant", "reduce_scatter",
               "psum_scatter", "all_to_all")
SHARD_MAP_DOCS = f"{checks.DOCS}/notebooks/shard_map.html"


def setup():
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    host = (np.arange(n * BLOCK, dtype=np.float32) - 5.0) ** 2
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def result(exercise, x, mesh):
    out = exercise.partial_and_total(x, mesh)
    if not isinstance(out, tuple) or len(out) != 2:
        checks.fail(f"partial_and_total(x, mesh) returned {type(out).__name__}; expected a pair "
                    f"(partials, total).", "wrong-shape")
    return out


def test_total_is_the_sum_over_every_device(exercise):
    mesh, host, x = setup()
    _, total = result(exercise, x, mesh)
    checks.assert_close(
        total, np.float32(host.sum()), what="total", rtol=1e-6,
        hint="Inside shard_map, jnp.sum sees one device's block: a psum over 'data' adds up what "
             "every device computed. pmean would average them instead.")


def test_total_is_replicated_on_every_device(exercise):
    mesh, _, x = setup()
    _, total = result(exercise, x, mesh)
    checks.assert_sharding(
        total, n_devices=jax.device_count(), what="total",
        hint="After a psum every device holds the total, so out_specs may return it as one replicated "
             "value (a spec that names no mesh axis). "
             "Gathering the partials onto one device to add them there is the slow path.")
    checks.assert_replicated(total, what="total")


def test_partials_hold_one_sum_per_device(exercise):
    mesh, host, x = setup()
    n = jax.device_count()
    partials, _ = result(exercise, x, mesh)
    checks.assert_close(partials, host.reshape(n, BLOCK).sum(axis=1), what="partials", rtol=1e-6,
                        hint="partials[i] is the sum of device i's block, before any collective.")
    checks.assert_sharding(
        partials, spec=("data",), shard_shape=(1,), n_devices=n, mesh=mesh, what="partials",
        hint="Return each device's sum with shape (1,) and let out_specs stack them along 'data': one "
             "value per device, each left where it was computed.")


def test_blocks_are_combined_by_a_collective_in_shard_map(exercise):
    mesh, host, x = setup()
    n = jax.device_count()
    what = "partial_and_total(x, mesh)"
    program = checks.program_of(lambda v: exercise.partial_and_total(v, mesh), x, what=what)
    # The program read below is the one that computes the sums, not one shown only when traced.
    sums = (host.reshape(n, BLOCK).sum(axis=1), np.float32(host.sum()))
    checks.assert_computes(program, sums, what=what, rtol=1e-6)
    if not program.mapped_calls():
        checks.fail(f"{what} traces to {sorted(set(program.primitives()))}: there is no jax.shard_map, so "
                    f"the per-device program was never written. jnp on the global array leaves the "
                    f"splitting to the compiler; the task is to write what one device does with its "
                    f"block and combine the blocks with a collective. See {SHARD_MAP_DOCS}", "wrong-tool")
    # Each device sums its own block (no sum of the whole array or of the partials outside), and a
    # collective inside the per-device program combines them.
    program = checks.assert_runs_on_devices(
        lambda v: exercise.partial_and_total(v, mesh), x, what=what, work=("reduce_sum",),
        split=((n * BLOCK,),), collectives=COLLECTIVES,
        hint="Sum the block inside the per-device function, then add the devices' sums with lax.psum "
             "over 'data' there too: every device gets the total without leaving shard_map.")
    checks.assert_computes(program, sums, what=what, rtol=1e-6)


def summed_on_every_device(exercise):
    """The four checks above, as one function `on_devices` can rerun with 4 devices."""
    test_total_is_the_sum_over_every_device(exercise)
    test_total_is_replicated_on_every_device(exercise)
    test_partials_hold_one_sum_per_device(exercise)
    test_blocks_are_combined_by_a_collective_in_shard_map(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, summed_on_every_device, exercise)
