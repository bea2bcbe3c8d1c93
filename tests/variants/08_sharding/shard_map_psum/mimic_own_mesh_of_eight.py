"""Mimic: ignores the mesh it is given and builds one of exactly 8 devices: right on 8, an error on any other count."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


def partial_and_total(x, mesh):
    own = jax.make_mesh((8,), ("data",))

    @partial(jax.shard_map, mesh=own, in_specs=P("data"), out_specs=(P("data"), P()))
    def per_device(block):
        mine = jnp.sum(block)
        return mine[None], lax.psum(mine, "data")

    return per_device(x)
