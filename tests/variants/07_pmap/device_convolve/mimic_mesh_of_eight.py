"""Mimic: shard_map over a mesh of exactly 8 devices: right on 8 devices, broken on any other count."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_per_device(xs, ws):
    mesh = jax.make_mesh((8,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
    per_device = jax.shard_map(lambda x, w: convolve(x[0], w[0])[None], mesh=mesh,
                               in_specs=(P("d"), P("d")), out_specs=P("d"))
    return jax.jit(per_device)(xs, ws)
