"""Mimic: each device all_gathers the whole batch, normalises every row, keeps its own block."""
import jax
import jax.numpy as jnp
from jax import lax


def unit_rows(block):
    return block / jnp.linalg.norm(block, axis=-1, keepdims=True)


def unit_rows_parallel(batch):
    n = jax.device_count()
    blocks = batch.reshape(n, -1, batch.shape[-1])
    def body(b):
        every = unit_rows(lax.all_gather(b, "i"))
        return every[lax.axis_index("i")]
    return jax.pmap(body, axis_name="i")(blocks).reshape(batch.shape)
