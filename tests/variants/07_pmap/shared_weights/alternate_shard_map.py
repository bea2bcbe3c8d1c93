"""Right, unusually: jax.shard_map with the signals split over a mesh axis and the filter replicated (P())."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs, w):
    mesh = jax.make_mesh((jax.device_count(),), ("devices",), axis_types=(jax.sharding.AxisType.Auto,))
    per_device = jax.shard_map(lambda x, w: convolve(x[0], w)[None], mesh=mesh,
                               in_specs=(P("devices"), P()), out_specs=P("devices"))
    return jax.jit(per_device)(xs, w)
