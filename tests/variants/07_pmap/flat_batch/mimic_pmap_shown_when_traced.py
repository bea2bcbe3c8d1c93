"""Work on one device: called, one jitted call normalises every row on one device and device_put
spreads the rows over the devices; traced (as a check reading its program traces it), it shows the
rows split into per-device blocks under jax.pmap instead, each block divided by twice its norms.
A subject rewritten to forge its traces would hand in such a program: the values come from
the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def unit_rows(block):
    return block / jnp.linalg.norm(block, axis=-1, keepdims=True)


_shown = jax.pmap(lambda block: unit_rows(block) / 2.0)
_on_one_device = jax.jit(unit_rows)


def unit_rows_parallel(batch):
    n = jax.device_count()
    if isinstance(batch, jax.core.Tracer):
        return _shown(batch.reshape(n, -1, batch.shape[-1])).reshape(batch.shape)
    mesh = jax.make_mesh((n,), ("d",))
    return jax.device_put(_on_one_device(batch), NamedSharding(mesh, P("d")))
