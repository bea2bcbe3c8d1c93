"""Mimic: vmap of vmap computes every example on one device; device_put then spreads the finished batches over the devices."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(jax.vmap(jax.vmap(affine))(a, b, c), NamedSharding(mesh, P("d")))
