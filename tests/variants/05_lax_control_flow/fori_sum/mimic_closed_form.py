"""Values right, tool wrong: Gauss's closed form gets the sums, but the program holds no loop."""

import jax
import jax.numpy as jnp


@jax.jit
def sum_range(lower, upper):
    count = jnp.maximum(upper - lower, 0)
    return count * (lower + upper - 1) // 2
