"""Wrong: moves the intermediate to device 0 between the stages; stage_two cannot take a single-device array."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def stage_one(x, mesh):
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h, mesh):
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x, mesh):
    return stage_two(jax.device_put(stage_one(x, mesh), jax.devices()[0]), mesh)
