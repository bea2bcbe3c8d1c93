"""Values right for small ranges, precision wrong: the running total is a float32, exact only up to
2**24, so a sum of integers comes back as a float and rounds for long ranges."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower, upper):
    return lax.fori_loop(lower, upper, lambda i, total: total + i, jnp.float32(0.0))
