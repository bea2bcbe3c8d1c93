"""Wrong: jnp.roll inside shard_map rolls rows within each device's block; no block moves."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P


def ring_shift(x: jax.Array, mesh: Mesh) -> jax.Array:
    n = mesh.shape["data"]
    ring = [(i, (i + 1) % n) for i in range(n)]  # (source, destination)

    def per_device(block):
        return jnp.roll(block, 1, axis=0)

    return jax.shard_map(per_device, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
