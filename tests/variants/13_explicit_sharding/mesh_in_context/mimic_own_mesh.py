"""Values right, idea skipped: builds its own mesh over every device instead of using the caller's."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def shard_batch(x):
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    return jax.device_put(x, NamedSharding(mesh, P("data")))
