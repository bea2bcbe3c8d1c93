"""Values and layout right, idea skipped: re-puts the intermediate with device_put between the stages."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def stage_one(x, mesh):
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h, mesh):
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x, mesh):
    h = jax.device_put(stage_one(x, mesh), NamedSharding(mesh, P("data")))
    return stage_two(h, mesh)
