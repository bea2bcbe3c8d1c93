"""Mimic: ignores the mesh it is given and runs the ring on one of its own, the same size in JAX's default device order: the input is moved onto it and the result stays there."""

import jax
from jax import lax
from jax.sharding import PartitionSpec as P


def ring_shift(x, mesh):
    own = jax.make_mesh((jax.device_count(),), ("data",))
    n = own.shape["data"]
    ring = [(i, (i + 1) % n) for i in range(n)]
    return jax.shard_map(lambda block: lax.ppermute(block, "data", perm=ring), mesh=own,
                         in_specs=P("data"), out_specs=P("data"))(x)
