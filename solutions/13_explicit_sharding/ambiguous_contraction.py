"""Reference solution for explicit-4: out_sharding says the summed product is replicated."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x: jax.Array, w: jax.Array) -> jax.Array:
    # Each device multiplies its own blocks of d; the all-reduce that adds them yields copies.
    return jnp.matmul(x, w, out_sharding=P())
