"""Right, unusually: shard_map over the device axis with vmap inside, instead of pmap."""

import jax
from jax.sharding import PartitionSpec as P


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    mesh = jax.make_mesh((jax.device_count(),), ("devices",), axis_types=(jax.sharding.AxisType.Auto,))
    per_device = jax.shard_map(jax.vmap(jax.vmap(affine)), mesh=mesh, in_specs=P("devices"),
                               out_specs=P("devices"))
    return jax.jit(per_device)(a, b, c)
