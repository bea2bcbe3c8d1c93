"""Wrong: builds the NamedSharding over the current AbstractMesh, which has axis names and sizes but no devices to place data on."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_batch(x: np.ndarray) -> jax.Array:
    return jax.device_put(x, NamedSharding(jax.sharding.get_abstract_mesh(), P("data")))
