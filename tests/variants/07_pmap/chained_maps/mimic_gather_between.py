"""Values and layout right, idea skipped: gathers the intermediate onto every device, then splits it again."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def stage_one(x, mesh):
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h, mesh):
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x, mesh):
    whole = jax.reshard(stage_one(x, mesh), NamedSharding(mesh, P()))
    return stage_two(jax.reshard(whole, NamedSharding(mesh, P("data"))), mesh)
