"""Wrong: pairs (i, i - 1) send each block to the previous device: a roll the other way."""

import jax
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P


def ring_shift(x: jax.Array, mesh: Mesh) -> jax.Array:
    n = mesh.shape["data"]
    ring = [(i, (i - 1) % n) for i in range(n)]

    def per_device(block):
        return lax.ppermute(block, "data", perm=ring)

    return jax.shard_map(per_device, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
