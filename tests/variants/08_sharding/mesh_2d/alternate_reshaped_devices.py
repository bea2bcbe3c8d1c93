"""Right, unusually: a Mesh over reshaped devices (Auto axes), specs without trailing None."""

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def make_mesh_2d():
    return Mesh(np.array(jax.devices()).reshape(-1, 2), ("data", "model"))


def shard_batch(batch, mesh):
    return jax.device_put(batch, NamedSharding(mesh, P("data")))


def shard_weights(w, mesh):
    return jax.device_put(w, NamedSharding(mesh, P(None, "model")))
