"""Wrong: the loop runs to upper inclusive (upper + 1), like a Python range off by one."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower, upper):
    return lax.fori_loop(lower, upper + 1, lambda i, total: total + i, jnp.int32(0))
