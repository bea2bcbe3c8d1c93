"""Values and layout right, stages skipped: pipeline writes both stages' work into one shard_map of its
own instead of calling stage_one and stage_two, so a change to either stage never reaches it."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def stage_one(x, mesh):
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h, mesh):
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x, mesh):
    first = jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(first)
