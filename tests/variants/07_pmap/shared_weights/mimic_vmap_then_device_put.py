"""Mimic: vmap filters every row on one device; device_put then spreads the finished rows over the devices."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs, w):
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(jax.vmap(convolve, in_axes=(0, None))(xs, w), NamedSharding(mesh, P("d")))
