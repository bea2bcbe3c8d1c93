"""Right, unusually: jax.reshard also takes host data and a bare spec under the current mesh."""

import jax
from jax.sharding import PartitionSpec as P


def shard_batch(x):
    return jax.reshard(x, P("data", None))
