"""Values right, communication wrong: fixes the mesh and constrains x to columns (one all-to-all), but
takes the statistics from a second copy of x constrained to replicated, an all-gather of the whole
batch onto every device beside the all-to-all."""

import jax
from jax import lax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def data_mesh():
    return jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))


@jax.jit
def standardize_columns(x):
    whole = lax.with_sharding_constraint(x, NamedSharding(data_mesh(), P()))
    x = lax.with_sharding_constraint(x, NamedSharding(data_mesh(), P(None, "data")))
    return (x - whole.mean(axis=0)) / whole.std(axis=0)
