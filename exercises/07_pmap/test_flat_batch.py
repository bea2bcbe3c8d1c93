"""Checks for pmap-3 (flat_batch)."""

import math

import jax
import numpy as np
import pytest

from grader import checks

REUSE_WHY = ("Build the pmapped function once, where it is defined (a module-level function, its "
             "unmapped arguments named with in_axes), and call that.")

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

FEATURES = 3
PMAP_DOCS = f"{checks.DOCS}/_autosummary/jax.pmap.html"
# What may run outside the per-device program: data movement and the mapping itself. Anything else
# is arithmetic, a part of normalising the rows (a sum of squares, a root, a power, a division...).
MOVES = {"jit", "pjit", "shard_map", "xla_pmap", "reshape", "split", "stack", "concatenate", "squeeze",
         "expand_dims", "broadcast_in_dim", "transpose", "slice", "dynamic_slice", "convert_element_type",
         "device_put", "copy", "copy_p", "sharding_constraint", "reshard"}


def _batch(rows):
    # Every row different, so a row put back in the wrong place shows.
    return (np.arange(rows * FEATURES, dtype=np.float32).reshape(rows, FEATURES) % 7) + 1.0


def _by_hand(batch):
    return batch / np.linalg.norm(batch, axis=-1, keepdims=True)


def _run(exercise, batch):
    try:
        return exercise.unit_rows_parallel(batch)
    except ValueError as error:
        if "squeeze" not in str(error):
            raise
        n = jax.device_count()
        checks.fail(
            f"unit_rows_parallel on {batch.shape[0]} rows raised ValueError ({str(error).splitlines()[0]}). "
            f"That is pmap's way of saying the leading axis ({batch.shape[0]}) is not the device count "
            f"({n}): pmap maps its leading axis onto devices, one slice each. Give it a leading axis of "
            f"jax.device_count() blocks of rows, and undo that reshape on the result. See {PMAP_DOCS}",
            "device-count")


def test_two_rows_per_device(exercise):
    batch = _batch(2 * jax.device_count())
    out = _run(exercise, batch)
    checks.assert_close(out, _by_hand(batch), what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                        hint="The result is (rows, features) again, rows in their original order: split the "
                             "rows into one block per device and put the blocks back in the same order.")
    checks.assert_reuses_program(lambda: _run(exercise, batch),
                                 what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                                 calls="2 more calls with the same shapes", why=REUSE_WHY)


def test_any_multiple_of_the_device_count(exercise):
    for per_device in (1, 3):
        batch = _batch(per_device * jax.device_count())
        out = _run(exercise, batch)
        checks.assert_close(out, _by_hand(batch), what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                            hint="Work out the rows per device from the batch's shape and the device count; "
                                 "do not write a number in.")


def rows_normalised_where_they_live(exercise):
    """Each device normalises its own block of rows and keeps it (module level: rerun with 4 devices)."""
    n = jax.device_count()
    batch = _batch(2 * n)
    what = f"unit_rows_parallel(batch of {batch.shape[0]} rows)"
    out = _run(exercise, batch)
    checks.assert_close(out, _by_hand(batch), what=what)
    program = checks.assert_runs_on_devices(
        exercise.unit_rows_parallel, batch, what=what,
        no_gather=((n, 2, FEATURES), batch.shape),  # the blocks as pmap or as shard_map receives them
        hint="Normalise the rows inside jax.pmap; the reshapes before and after move no data.")
    # The program read is run here and must give the task's values; where its result lives (the
    # examiner's run, not the call's own word) shows where the work's output stays.
    checks.assert_computes(program, _by_hand(batch), what=what)
    checks.assert_split_over_devices(program.values(), what=what,
                                     hint="Each device should normalise its own block of rows under "
                                          "jax.pmap; reshaping pmap's result keeps the blocks in place.")
    wide = [call for call in program.mapped_calls() if call.n_devices == n]
    blocks = [(whole, per) for call in wide for whole, per in call.inputs if math.prod(whole) == batch.size]
    if not any(math.prod(per) * n == batch.size for _, per in blocks):
        seen = ", ".join(f"{whole} as {per}" for whole, per in blocks) or "no input of the batch's size"
        checks.fail(f"{what}: the batch does not reach the devices split into {n} blocks (the per-device "
                    f"program receives {seen}): every device normalises every row. Each device should get "
                    f"only its own {batch.shape[0] // n} rows. See {PMAP_DOCS}", "not-distributed")
    inside = {p for call in wide for p in call.primitives()} - MOVES
    outside = set(program.outside_mapped()) - MOVES
    if not inside or outside:
        checks.fail(f"{what}: the normalising ({', '.join(sorted(outside)) or 'the norm and division'}) runs "
                    f"outside the per-device program, on the whole batch: pmap only moved the data. Call "
                    f"unit_rows inside the pmapped function. See {PMAP_DOCS}", "not-distributed")


def test_rows_are_normalised_on_their_own_devices(exercise):
    rows_normalised_where_they_live(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, rows_normalised_where_they_live, exercise)
