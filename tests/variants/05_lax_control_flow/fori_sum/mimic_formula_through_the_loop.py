"""Values right, loop wrong: the sum by its formula, passed through the loop as two copies that each step averages (or 2a - b): on the real data the
loop changes nothing, and the values were computed beside it."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower: jnp.ndarray, upper: jnp.ndarray) -> jnp.ndarray:
    lower = jnp.asarray(lower, jnp.int32)
    upper = jnp.asarray(upper, jnp.int32)
    n = upper - lower
    total = jnp.where(n > 0, (lower + upper - 1) * n // 2, 0).astype(jnp.int32)

    def body(i, c):
        a, b = c
        y = 2 * a - b
        return (y, y)

    return lax.fori_loop(lower, upper, body, (total, total))[0]
