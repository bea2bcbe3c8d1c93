"""Values right, mechanism wrong: the blocks move by a roll of the global array (the compiler
writes the ring); a shard_map ppermutes a one-element slice beside it, multiplied by zero."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def ring_shift(x, mesh):
    n = mesh.shape["data"]
    rows = x.shape[0] // n
    split = NamedSharding(mesh, P("data"))
    ring = [(i, (i + 1) % n) for i in range(n)]

    @jax.jit
    def run(x):
        decoy = jax.shard_map(lambda b: lax.ppermute(b[:1, :1], "data", perm=ring), mesh=mesh,
                              in_specs=P("data"), out_specs=P("data"))(x).sum()
        rolled = jax.sharding.auto_axes(lambda v: jnp.roll(v, rows, axis=0), out_sharding=split)(x)
        return rolled + 0.0 * decoy

    return run(x)
