"""Wrong: a fixed 20 steps with fori_loop converges, but ignores tol and always reports 20 steps."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def newton_sqrt(a, tol):
    root = lax.fori_loop(0, 20, lambda i, x: (x + a / x) / 2, a)
    return root, jnp.int32(20)
