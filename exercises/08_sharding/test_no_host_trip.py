"""Checks for sharding-7 (no_host_trip)."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks


def setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    host = ((np.arange(2 * n * 3, dtype=np.float32).reshape(2 * n, 3) * 7) % 11) + \
        np.array([0.0, 10.0, -5.0], np.float32)
    x = jax.device_put(host, NamedSharding(mesh, P("data")))
    return host, x


def expected(host: np.ndarray) -> np.ndarray:
    return (host - host.mean(axis=0)) / host.std(axis=0)


COLUMNS_HINT = "Statistics per column are reductions over axis 0 (the rows)."


def test_stays_on_the_devices_sharded_like_the_input(exercise):
    # The host round trip first (the bug), then the values, then the row split of the result.
    host, x = setup()
    with jax.transfer_guard("disallow"), checks.host_reads() as reads:
        try:
            out = exercise.standardize(x)
            jax.block_until_ready(out)
        except Exception as error:  # noqa: BLE001 - JAX raises a runtime error for the transfer
            if "Disallowed" not in str(error):
                raise
            checks.fail(
                f"standardize(x) moved data between host and devices under "
                f"jax.transfer_guard('disallow'): {str(error).splitlines()[0][:200]}. A NumPy or "
                f"Python value (np.asarray / float() / .item() results, or the constants of "
                f"eager jnp calls) was sent back to the devices. Compute everything with jnp "
                f"inside one jax.jit so it stays on the devices. "
                f"See {checks.DOCS}/transfer_guard.html", "host-transfer")
    if reads:  # a CPU's guard is blind to device-to-host copies: printing a statistic is one
        checks.fail(f"standardize(x) read {', '.join(reads[:3])} back to the host while it ran (printed, "
                    f"formatted, converted or handed to NumPy, the whole array or a shard's .data): a device-to-host copy that waits for the devices, the "
                    f"first half of a round trip. Keep every value on the devices. "
                    f"See {checks.DOCS}/transfer_guard.html", "host-transfer")
    checks.assert_close(out, expected(host), what="standardize(x)", rtol=1e-4, atol=1e-5,
                        hint=COLUMNS_HINT)
    checks.assert_sharding(
        out, spec=("data",), shard_shape=(2, 3), n_devices=jax.device_count(),
        what="standardize(x)",
        hint="An elementwise result should keep the input's row split. Going through the host "
             "(NumPy) or device_put onto one device gathers the whole batch in one place.")


def test_runs_under_jit(exercise):
    host, x = setup()
    try:
        out = jax.jit(exercise.standardize)(x)
    except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError) as error:
        checks.fail(
            f"jax.jit(standardize)(x) fails ({type(error).__name__}): the function pulls traced "
            f"values to the host (np.asarray, float(), .item()). This is also the check that "
            f"catches device-to-host copies, which the transfer guard does not see on CPU. Use "
            f"jnp.mean / jnp.std on the device. See {checks.DOCS}/transfer_guard.html", "host-transfer")
    checks.assert_close(out, expected(host), what="jax.jit(standardize)(x)", rtol=1e-4, atol=1e-5,
                        hint=COLUMNS_HINT)
    # Jittable is not jitted: the task asks for standardize to be one compiled program itself.
    checks.assert_jitted(exercise.standardize, x, what="standardize(x)", entirely=True, single=True)


def statistics_computed_where_the_rows_live(exercise):
    """No device is handed the whole batch; partial statistics are combined instead (module level:
    rerun with 4 devices)."""
    host, x = setup()
    out = exercise.standardize(x)
    checks.assert_close(out, expected(host), what="standardize(x)", rtol=1e-4, atol=1e-5, hint=COLUMNS_HINT)
    checks.assert_sharding(out, spec=("data",), n_devices=jax.device_count(), what="standardize(x)")
    # A host callback computes on the host inside the program: a round trip that jit can trace.
    checks.assert_no_callbacks(checks.program_of(exercise.standardize, x, what="standardize(x)"),
                               what="standardize(x)")
    # A result laid out like x proves nothing if every device was first handed the whole batch: the
    # compiled program shows what moved between devices.
    # Whatever collective does it: a psum of one-hot-placed row blocks gathers the batch too.
    whole = x.size * x.dtype.itemsize
    checks.assert_receives_at_most(exercise.standardize, x, limit=whole / 2, what="standardize(x)",
                                   allowed=f"partial column statistics (well under half the batch's "
                                           f"{whole} bytes)",
                                   hint="Column statistics need only each device's partial sums, combined "
                                        "by an all-reduce: jnp.mean / jnp.std on the row-split array.")
    moved = checks.compiled_program(exercise.standardize, x, what="standardize(x)").collectives()
    gathered = sorted(op for op in ("all-gather", "all-to-all") if moved[op])
    if gathered:
        checks.fail(
            f"standardize(x)'s compiled program gathers the data across devices ({', '.join(gathered)}): "
            f"every device is handed the whole batch (or whole columns) and the result is split again "
            f"afterwards. Column statistics need only partial sums from each device's rows, combined by "
            f"an all-reduce; jnp.mean / jnp.std on the row-split array compile to exactly that. "
            f"See {checks.DOCS}/sharded-computation.html", "not-distributed")


def test_statistics_computed_where_the_rows_live(exercise):
    statistics_computed_where_the_rows_live(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, statistics_computed_where_the_rows_live, exercise)
