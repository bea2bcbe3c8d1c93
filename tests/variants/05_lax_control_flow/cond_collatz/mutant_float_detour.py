"""Wrong: true division then a cast back to n's dtype: float32 cannot hold every int32 past 2**24,
so large even n come back rounded (2**25 + 2 halves to 2**24, not 2**24 + 1)."""

import jax
from jax import lax


@jax.jit
def collatz_step(n):
    return lax.cond(n % 2 == 1, lambda m: 3 * m + 1, lambda m: (m / 2).astype(m.dtype), n)
