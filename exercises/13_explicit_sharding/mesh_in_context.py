"""jax.set_mesh: one current mesh for a block of code, and bare PartitionSpecs.

In JAX 0.10 `jax.make_mesh(shape, names)` gives its axes the Explicit type by
default: an array placed on such a mesh carries its sharding in its type
(`jax.typeof(x)` prints `float32[16@data,3]`: 16 rows split over axis "data").
`with jax.set_mesh(mesh):` makes `mesh` the current mesh inside the block
(called on its own line, it sets it for good). Under it a bare PartitionSpec
is enough wherever a sharding goes: `jax.device_put(x, P("data"))`,
`jax.reshard(x, P())`, `jnp.zeros(shape, out_sharding=P("data"))`; with no
current mesh a bare P is an error. Library code then needs no mesh argument:
it works on whatever mesh its caller chose, 1-D or 2-D. A mesh axis the spec
does not name holds copies. (Older releases spelled the context manager
`jax.sharding.use_mesh`; in 0.10 it is `jax.set_mesh`.)
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.set_mesh.html

Task (fill-in): `shard_batch(x)` takes a host batch `x` (NumPy, one example
per row) and returns it as a jax.Array on the caller's current mesh, its rows
split over the mesh axis "data". Take the mesh from the caller's context; build
none from sizes or devices of your own choosing. Keep the signature.
"""

import jax
import numpy as np
from jax.sharding import PartitionSpec as P


def shard_batch(x: np.ndarray) -> jax.Array:
    raise NotImplementedError("TODO: put x on the current mesh with its rows split over 'data'")
