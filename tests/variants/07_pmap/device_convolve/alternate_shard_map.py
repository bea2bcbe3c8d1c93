"""Right, unusually: jax.shard_map over a one-axis mesh, the API pmap is now built on."""

import functools

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def _block(x, w):  # each device sees a (1, length) and a (1, taps) block
    return convolve(x[0], w[0])[None]


@functools.cache
def _mapped(n_devices):  # built once per device count, so its compiled program is reused
    mesh = jax.make_mesh((n_devices,), ("devices",), axis_types=(jax.sharding.AxisType.Auto,))
    return jax.jit(jax.shard_map(_block, mesh=mesh, in_specs=(P("devices"), P("devices")),
                                 out_specs=P("devices")))


def convolve_per_device(xs, ws):
    return _mapped(jax.device_count())(xs, ws)
