"""Wrong: the partials are psum-ed into one replicated vector of per-device sums, not left split."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


def partial_and_total(x, mesh):
    n = mesh.shape["data"]

    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=(P(), P()))
    def per_device(block):
        mine = jnp.sum(block)
        slot = jnp.zeros(n, block.dtype).at[lax.axis_index("data")].set(mine)
        return lax.psum(slot, "data"), lax.psum(mine, "data")

    return per_device(x)
