"""Wrong: lax.pmean averages the partials instead of adding them."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


def partial_and_total(x, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=(P("data"), P()))
    def per_device(block):
        mine = jnp.sum(block)
        return mine[None], lax.pmean(mine, "data")

    return per_device(x)
