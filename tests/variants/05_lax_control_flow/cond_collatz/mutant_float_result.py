"""Wrong: makes the branches agree by turning both into float32, so the step returns floats."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def collatz_step(n):
    return lax.cond(n % 2 == 0, lambda n: n / 2, lambda n: (3 * n + 1).astype(jnp.float32), n)
