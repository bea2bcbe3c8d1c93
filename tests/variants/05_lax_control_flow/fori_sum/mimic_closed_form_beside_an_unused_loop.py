"""Wrong: Gauss's closed form gives the sum; a lax.fori_loop whose result is thrown away stands
beside it as a decoy."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower, upper):
    lax.fori_loop(lower, upper, lambda i, total: total, jnp.int32(0))
    n = jnp.maximum(upper - lower, 0)
    return n * (lower + upper - 1) // 2
