"""Reference solution for explicit-5: an Auto mesh axis, so the constraint steers the compiler."""

import jax
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P


def data_mesh() -> Mesh:
    return jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))


@jax.jit
def standardize_columns(x: jax.Array) -> jax.Array:
    x = lax.with_sharding_constraint(x, NamedSharding(data_mesh(), P(None, "data")))
    return (x - x.mean(axis=0)) / x.std(axis=0)
