"""Wrong: the batch goes over "model" and the weights over "data": the roles of the axes are swapped."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def make_mesh_2d():
    return jax.make_mesh((jax.device_count() // 2, 2), ("data", "model"))


def shard_batch(batch, mesh):
    return jax.device_put(batch, NamedSharding(mesh, P("model", None)))


def shard_weights(w, mesh):
    return jax.device_put(w, NamedSharding(mesh, P(None, "data")))
