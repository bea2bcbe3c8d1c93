"""Mimic: every device all_gathers every block and keeps its left neighbour's: right values, but all the data moves to every device."""

import jax
from jax import lax
from jax.sharding import PartitionSpec as P


def ring_shift(x, mesh):
    n = mesh.shape["data"]

    def per_device(block):
        everyone = lax.all_gather(block, "data")  # shape (n, rows, cols)
        left = (lax.axis_index("data") - 1) % n
        return everyone[left]

    return jax.shard_map(per_device, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
