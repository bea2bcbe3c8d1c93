"""Right, unusually: the rows split into blocks with jnp.split and stacked, and each row scaled by its squared norm to the power -0.5."""

import jax
import jax.numpy as jnp


def unit_rows(block):
    return block * jnp.sum(block * block, axis=-1, keepdims=True) ** -0.5


_per_device = jax.pmap(unit_rows)


def unit_rows_parallel(batch):
    blocks = jnp.stack(jnp.split(batch, jax.device_count()))
    return _per_device(blocks).reshape(batch.shape)
