"""Values and data movement right, idea skipped: rolls the global array under jit on auto axes, and
the compiler writes the ring (one collective-permute); the task asks for the per-device step written
with shard_map and ppermute."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def ring_shift(x, mesh):
    rows = x.shape[0] // mesh.shape["data"]
    split = NamedSharding(mesh, P("data"))
    roll = jax.sharding.auto_axes(lambda v: jnp.roll(v, rows, axis=0), out_sharding=split)
    return jax.jit(roll)(x)
