"""Wrong: a psum sits in the per-device program as a decoy, its result thrown away; the total is
computed outside shard_map, on the partial sums gathered to every device."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def partial_and_total(x, mesh):
    def per_device(block):
        mine = jnp.sum(block)
        lax.psum(mine, "data")
        return mine[None]

    partials = jax.shard_map(per_device, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    gathered = jax.reshard(partials, NamedSharding(mesh, P()))
    return partials, jnp.dot(gathered, jnp.ones_like(gathered))
