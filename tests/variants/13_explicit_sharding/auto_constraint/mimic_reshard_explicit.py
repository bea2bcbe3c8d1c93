"""Values, layout and program right, idea skipped: keeps the Explicit mesh and swaps the constraint for reshard."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def data_mesh():
    return jax.make_mesh((jax.device_count(),), ("data",))


@jax.jit
def standardize_columns(x):
    x = jax.reshard(x, NamedSharding(data_mesh(), P(None, "data")))
    return (x - x.mean(axis=0)) / x.std(axis=0)
