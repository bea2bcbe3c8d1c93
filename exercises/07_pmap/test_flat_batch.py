"""Checks for pmap-3 (flat_batch)."""

import jax
import numpy as np

from grader import checks

# Inputs stay NumPy arrays: pmap copies each device's slice straight from the host, while a
# jax.Array on one device is first split by an extra compiled program (slow on a cold cache).

FEATURES = 3


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
            f"({n}): pmap maps its leading axis onto devices. Reshape the batch to "
            f"({n}, {batch.shape[0] // n}, {FEATURES}) first and reshape the result back. "
            f"See https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html")


def test_two_rows_per_device(exercise):
    batch = _batch(2 * jax.device_count())
    out = _run(exercise, batch)
    checks.assert_close(out, _by_hand(batch), what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                        hint="The result is (rows, features) again, rows in their original order: reshape "
                             "to (devices, rows // devices, features) and back the same way.")


def test_any_multiple_of_the_device_count(exercise):
    for per_device in (1, 3):
        batch = _batch(per_device * jax.device_count())
        out = _run(exercise, batch)
        checks.assert_close(out, _by_hand(batch), what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                            hint="Compute rows // jax.device_count() from the batch; do not hard-code it.")


def test_rows_are_split_over_all_devices(exercise):
    batch = _batch(2 * jax.device_count())
    out = _run(exercise, batch)
    checks.assert_split_over_devices(out, what=f"unit_rows_parallel(batch of {batch.shape[0]} rows)",
                                     hint="Each device should normalise its own block of rows under "
                                          "jax.pmap; reshaping pmap's result keeps the blocks in place.")
