"""Right, unusually: keep the true division but cast the even branch back to n's dtype."""

import jax
from jax import lax


@jax.jit
def collatz_step(n):
    return lax.cond(n % 2 == 1, lambda m: 3 * m + 1, lambda m: (m / 2).astype(m.dtype), n)
