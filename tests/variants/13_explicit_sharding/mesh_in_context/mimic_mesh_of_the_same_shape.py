"""Wrong: rebuilds a mesh of the current one's shape with jax.make_mesh, on devices in its own order."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_batch(x):
    current = jax.sharding.get_abstract_mesh()
    mesh = jax.make_mesh(current.axis_sizes, current.axis_names)
    return jax.device_put(x, NamedSharding(mesh, P("data")))
