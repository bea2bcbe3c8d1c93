"""Mimic: ignores the mesh it is given and maps over one of its own, the same size in JAX's default device order: the partials land on other devices than the caller's mesh puts them on."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


def partial_and_total(x, mesh):
    own = jax.make_mesh((jax.device_count(),), ("data",))

    @partial(jax.shard_map, mesh=own, in_specs=P("data"), out_specs=(P("data"), P()))
    def per_device(block):
        mine = jnp.sum(block)
        return mine[None], lax.psum(mine, "data")

    return jax.jit(per_device)(x)
