"""Mimic: the norms are computed on the whole batch before pmap; the devices only divide by them."""

import jax
import jax.numpy as jnp


def unit_rows(block):
    return block / jnp.linalg.norm(block, axis=-1, keepdims=True)


def unit_rows_parallel(batch):
    n = jax.device_count()
    rows, features = batch.shape
    norms = jnp.linalg.norm(batch, axis=-1, keepdims=True)
    out = jax.pmap(lambda b, s: b / s)(batch.reshape(n, -1, features), norms.reshape(n, -1, 1))
    return out.reshape(rows, features)
