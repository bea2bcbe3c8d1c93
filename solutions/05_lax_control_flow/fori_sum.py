"""Reference solution for lax-1: a fori_loop with traced bounds."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower: jnp.ndarray, upper: jnp.ndarray) -> jnp.ndarray:
    # Traced bounds make fori_loop a while_loop: the trip count is data, so a
    # new range is a new input, not a new program. An empty range runs no steps.
    return lax.fori_loop(lower, upper, lambda i, total: total + i, jnp.zeros((), jnp.int32))
