"""Mimic: per-device statistics in shard_map, but over a mesh of exactly 8 devices it builds itself: an error on any other count."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


@jax.jit
def standardize(x):
    mesh = jax.make_mesh((8,), ("data",))
    rows = x.shape[0]

    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
    def per_device(block):
        mean = lax.psum(jnp.sum(block, axis=0), "data") / rows
        var = lax.psum(jnp.sum((block - mean) ** 2, axis=0), "data") / rows
        return (block - mean) * lax.rsqrt(var)

    return per_device(x)
