"""shard_map: write the per-device program, combine with a collective.

`jax.shard_map(f, mesh=mesh, in_specs=P("data"), out_specs=...)` runs `f` once
per device on that device's block, like one program per device. Inside, a
reduction such as `jnp.sum` sees only the local block: partial results. A
collective such as `lax.psum(v, "data")` adds `v` over every device of the
axis and hands each device the same total, so `out_specs=P()` (one value,
copied everywhere) is true. `out_specs=P("data")` instead stacks the
per-device results along dimension 0.
Docs: https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): `partial_and_total(x, mesh)` takes a 1-D `x` split over "data"
and returns `(partials, total)`: `partials[i]` is the sum of device i's block
(shape `(devices,)`: each device returns its own shape-`(1,)` piece, split
over "data"), `total` the sum of all of `x` as a scalar (shape `()`),
replicated on every device. Use `jax.shard_map`. Keep the signature.
"""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P


def partial_and_total(x: jax.Array, mesh: Mesh) -> tuple[jax.Array, jax.Array]:
    raise NotImplementedError("TODO: shard_map a per-block sum, then lax.psum it over 'data'")
