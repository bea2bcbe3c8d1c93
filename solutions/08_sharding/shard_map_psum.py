"""Reference solution for sharding-5: a local sum per block, psum for the total."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P


def partial_and_total(x: jax.Array, mesh: Mesh) -> tuple[jax.Array, jax.Array]:
    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=(P("data"), P()))
    def per_device(block):
        mine = jnp.sum(block)
        # keepdims: one value per device, stacked along "data" by out_specs.
        return mine[None], lax.psum(mine, "data")

    return jax.jit(per_device)(x)
