"""Wrong: puts a whole copy of the batch on every device of the current mesh; nothing is split."""

import jax
from jax.sharding import PartitionSpec as P


def shard_batch(x):
    return jax.device_put(x, P())
