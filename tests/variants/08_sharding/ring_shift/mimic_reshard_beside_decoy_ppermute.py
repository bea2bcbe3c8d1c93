"""Values right, data movement wrong: reshards x to replicated outside the shard_map and rolls the whole
array there; a shard_map beside it ppermutes each block and multiplies the result by zero, so the
program holds a ring that moves nothing the answer uses."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def ring_shift(x, mesh):
    n = mesh.shape["data"]
    ring = [(i, (i + 1) % n) for i in range(n)]
    decoy = jax.shard_map(lambda b: lax.ppermute(b, "data", perm=ring), mesh=mesh,
                          in_specs=P("data"), out_specs=P("data"))(x)
    whole = jax.reshard(x, NamedSharding(mesh, P()))
    rolled = jnp.roll(whole, x.shape[0] // n, axis=0)
    return jax.reshard(rolled, NamedSharding(mesh, P("data"))) + 0.0 * decoy
