"""Checks for pmap-9 (chained_maps)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

PER_DEVICE = 4
GUARD_DOCS = f"{checks.DOCS}/transfer_guard.html"
BETWEEN = {"device_put": "host-transfer", "pure_callback": "host-transfer", "io_callback": "host-transfer",
           "reshard": "wrong-sharding", "sharding_constraint": "wrong-sharding"}


def _setup():
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    host = ((np.arange(n * PER_DEVICE, dtype=np.float32) * 5) % 7) - 2.0
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def _expected(host: np.ndarray) -> np.ndarray:
    blocks = host.reshape(-1, PER_DEVICE)
    return np.cumsum(blocks - blocks.mean(axis=1, keepdims=True), axis=1).ravel()


def _values_and_split(out, host, mesh, what: str) -> None:
    checks.assert_close(out, _expected(host), what=what, rtol=1e-5, atol=1e-5,
                        hint="stage_one, then stage_two on its output, each on every device's own block.")
    checks.assert_sharding(out, what=what, spec=("data",), shard_shape=(PER_DEVICE,),
                           n_devices=jax.device_count(), mesh=mesh,
                           hint="The second stage's output stays split like its input.")


def test_no_transfer_between_the_stages(exercise):
    mesh, host, x = _setup()
    with jax.transfer_guard("disallow_explicit"), checks.host_reads() as reads:
        try:
            out = exercise.pipeline(x, mesh)
            jax.block_until_ready(out)
        except Exception as error:  # noqa: BLE001 - JAX raises a runtime error for the transfer
            if "Disallowed" not in str(error):
                raise
            checks.fail(f"pipeline(x, mesh) copied data between host and devices under "
                        f"jax.transfer_guard('disallow_explicit'): {str(error).splitlines()[0][:160]}. The "
                        f"intermediate went to the host (np.asarray) and was put back on the devices "
                        f"(device_put): stage_one's output is already split over 'data' the way stage_two "
                        f"wants it. See {GUARD_DOCS}", "host-transfer")
    if reads:  # a CPU's guard is blind to device-to-host copies: printing the intermediate is one
        checks.fail(f"pipeline(x, mesh) read {', '.join(reads[:3])} back to the host between or after the "
                    f"stages (printed, formatted, converted or handed to NumPy): every device's block is copied into "
                    f"host memory, which is what this exercise removes. See {GUARD_DOCS}", "host-transfer")
    _values_and_split(out, host, mesh, "pipeline(x, mesh)")


def check_program(exercise) -> None:
    """Module level so on_devices can rerun it: both stages run per device, linked with nothing between."""
    mesh, host, x = _setup()
    n = jax.device_count()
    program = checks.program_of(lambda v: exercise.pipeline(v, mesh), x, what="pipeline(x, mesh) under jax.jit")
    calls = [c for c in program.mapped_calls() if c.n_devices == n]
    if len(calls) < 2:
        checks.fail(f"pipeline's program holds {len(calls)} per-device map(s) over all {n} devices; expected "
                    f"stage_one's and stage_two's, one after the other. Keep both stages and chain them.",
                    "wrong-tool")
    between = sorted(set(program.outside_mapped()) & set(BETWEEN))
    if between:
        checks.fail(f"between the stages pipeline's program runs {', '.join(between)}: the intermediate is "
                    f"moved or re-split before stage_two gets it, though stage_one returned it split over "
                    f"'data' exactly as stage_two's in_specs ask. Pass it straight on. See {GUARD_DOCS}",
                    BETWEEN[between[0]])
    # The program read is run here: it must give the task's values, split like its input.
    checks.assert_computes(program, _expected(host), what="pipeline(x, mesh) under jax.jit", rtol=1e-5, atol=1e-5)
    _values_and_split(program.values(), host, mesh, "pipeline(x, mesh) under jax.jit")
    # What the program shows is what the call runs: the stages' programs, and no other of its own.
    checks.assert_called_as_traced(lambda v: exercise.pipeline(v, mesh), x, what="pipeline(x, mesh)",
                                   program=program, nothing_else=True)


def test_stages_chain_on_the_devices(exercise):
    check_program(exercise)
    _calls_both_stages(exercise)


def other_stage_one(x, mesh):
    """A different first stage, swapped in for stage_one: each block shifted by its own maximum."""
    return jax.shard_map(lambda b: b - jnp.max(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def other_stage_two(h, mesh):
    """A different second stage, swapped in for stage_two: a running maximum within each block."""
    return jax.shard_map(lambda b: lax.cummax(b, axis=0), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def _calls_both_stages(exercise):
    # The task keeps the stages and chains them: pipeline must call stage_one and stage_two, so
    # swapped for other stages, it computes with those. Another block size: no cached trace reused.
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))
    host = ((np.arange(n * 3, dtype=np.float32) * 5) % 7) - 2.0
    x = jax.device_put(host, NamedSharding(mesh, P("data")))
    blocks = host.reshape(-1, 3)
    want = np.maximum.accumulate(blocks - blocks.max(axis=1, keepdims=True), axis=1).ravel()
    with checks.swap_function(exercise, "stage_one", other_stage_one), \
            checks.swap_function(exercise, "stage_two", other_stage_two):
        out = exercise.pipeline(x, mesh)
    checks.assert_follows(out, want, what="pipeline(x, mesh)", swapped="stage_one and stage_two",
                          hint="Call stage_one, then stage_two on its output, as they are: the task chains "
                               "the two stages it gives you, not copies of their work.")


@pytest.mark.devices(4)
def test_stages_chain_with_4_devices(exercise):
    checks.on_devices(4, check_program, exercise)
