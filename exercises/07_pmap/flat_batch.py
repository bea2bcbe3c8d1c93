"""pmap needs the device axis first: reshape a flat batch.

pmap's leading axis IS the device axis: its length must equal the number of
devices. A flat batch of 16 rows on 8 devices is not 8 slices, so pmap
refuses, with an error that (in JAX 0.10) reads "cannot select an axis to
squeeze out which has size not equal to one". Reshape the batch to
(devices, rows_per_device, ...) so each device gets a contiguous block of
rows, run pmap, and reshape the result back: each device keeps the rows it
computed, so the flat result stays split over the devices. (This reshape
is one reason pmap is legacy: shard_map cuts a flat batch into blocks itself.)
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html

Task (fix-it): `unit_rows_parallel(batch)` should scale every row of a
(rows, features) batch to unit length, splitting the work over all
`jax.device_count()` devices with `jax.pmap` (or `jax.shard_map`); rows is
any multiple of the device count. It fails as soon as the batch has more
rows than there are devices. Return the (rows, features) result in the
original row order, still split in contiguous blocks over the devices (no
gathering). Repeated calls reuse one compiled program. Keep the signature.
"""

import jax
import jax.numpy as jnp


def unit_rows(block: jnp.ndarray) -> jnp.ndarray:
    return block / jnp.linalg.norm(block, axis=-1, keepdims=True)


def unit_rows_parallel(batch: jnp.ndarray) -> jnp.ndarray:
    return jax.pmap(unit_rows)(batch)
