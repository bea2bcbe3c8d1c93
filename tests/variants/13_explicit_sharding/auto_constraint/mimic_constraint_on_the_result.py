"""Values and layout right, idea skipped: the rows-to-columns move is written by hand (a shard_map
with lax.all_to_all), and the constraint sits on the result, which already has its layout, so it
steers nothing."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P


def data_mesh() -> Mesh:
    return jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))


def _local(b):
    # b: (rows/n, cols) block; hand-written all-to-all to (rows, cols/n)
    b = lax.all_to_all(b, "data", split_axis=1, concat_axis=0, tiled=True)
    return (b - b.mean(axis=0)) / b.std(axis=0)


@jax.jit
def standardize_columns(x: jax.Array) -> jax.Array:
    mesh = data_mesh()
    y = jax.shard_map(_local, mesh=mesh, in_specs=P("data"), out_specs=P(None, "data"))(x)
    return lax.with_sharding_constraint(y, NamedSharding(mesh, P(None, "data")))  # decoy: already so
