"""Right, unusually: each device's block is cut from the host batch by a callback, on the current mesh."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_batch(x):
    sharding = NamedSharding(jax.sharding.get_mesh(), P("data"))
    return jax.make_array_from_callback(x.shape, sharding, lambda index: x[index])
