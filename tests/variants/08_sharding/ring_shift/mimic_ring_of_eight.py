"""Mimic: the ring's pairs are written for 8 devices: right on 8, an error on any other count."""

import jax
from jax import lax
from jax.sharding import PartitionSpec as P


def ring_shift(x, mesh):
    ring = [(i, (i + 1) % 8) for i in range(8)]
    return jax.shard_map(lambda b: lax.ppermute(b, "data", perm=ring), mesh=mesh, in_specs=P("data"),
                         out_specs=P("data"))(x)
