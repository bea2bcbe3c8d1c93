"""Values right, tool wrong: called, shard_map makes only the partials and a jitted jnp.sum adds them
outside; traced (as a check reading its program traces it), it shows a jitted shard_map with a
psum instead, one whose total is averaged, not summed. It scored full
marks before the checks ran the program they read."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def _for_show(x, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=(P("data"), P()))
    def per_device(block):
        mine = jnp.sum(block)
        return mine[None], lax.pmean(mine, "data")

    return jax.jit(per_device)(x)


def _summed_outside(x, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
    def per_device(block):
        return jnp.sum(block, keepdims=True)

    partials = per_device(x)
    return partials, jax.jit(jnp.sum, out_shardings=NamedSharding(mesh, P()))(partials)


def partial_and_total(x, mesh):
    return (_for_show if isinstance(x, jax.core.Tracer) else _summed_outside)(x, mesh)
