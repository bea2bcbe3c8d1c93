"""Wrong for this exercise: Gauss's closed form gets the numbers but has no loop in the program."""

import jax
import jax.numpy as jnp


@jax.jit
def sum_range(lower, upper):
    count = jnp.maximum(upper - lower, 0)
    return count * (lower + upper - 1) // 2
