"""Right, unusually: reads the current mesh with jax.sharding.get_mesh and spells the NamedSharding out."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_batch(x):
    return jax.device_put(x, NamedSharding(jax.sharding.get_mesh(), P("data")))
