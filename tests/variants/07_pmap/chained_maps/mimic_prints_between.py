"""Values right, transfers wrong: chains the stages directly, but prints the intermediate on the way,
which copies every device's block into host memory (a CPU's transfer guard never sees it)."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def stage_one(x, mesh):
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h, mesh):
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x, mesh):
    h = stage_one(x, mesh)
    print("after stage one:", h)
    return stage_two(h, mesh)
