"""Wrong: asks with_sharding_constraint for a's layout; on the caller's Explicit mesh that only asserts, and the transpose's layout differs."""

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def symmetrize(a: jax.Array) -> jax.Array:
    return (a + jax.lax.with_sharding_constraint(a.T, jax.typeof(a).sharding)) / 2
