"""Right, unusually: lax.cond with lax.div for the even branch (integer division spelled as a lax op)."""

import jax
from jax import lax


@jax.jit
def collatz_step(n):
    return lax.cond(lax.rem(n, 2) == 0, lambda m: lax.div(m, 2), lambda m: 3 * m + 1, n)
