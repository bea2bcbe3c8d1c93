"""Right, unusually: each device's rows cut from the host array by a callback."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_rows(x):
    sharding = NamedSharding(jax.make_mesh((jax.device_count(),), ("data",)), P("data"))
    return jax.make_array_from_callback(x.shape, sharding, lambda index: x[index])
