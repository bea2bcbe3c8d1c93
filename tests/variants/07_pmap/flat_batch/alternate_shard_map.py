"""Right, unusually: shard_map splits the flat (rows, features) batch by rows itself, no reshapes needed."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def unit_rows(block):
    return block / jnp.linalg.norm(block, axis=-1, keepdims=True)


def unit_rows_parallel(batch):
    mesh = jax.make_mesh((jax.device_count(),), ("rows",), axis_types=(jax.sharding.AxisType.Auto,))
    return jax.jit(jax.shard_map(unit_rows, mesh=mesh, in_specs=P("rows"), out_specs=P("rows")))(batch)
