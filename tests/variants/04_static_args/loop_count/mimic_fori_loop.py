"""Values right, tool skipped: a lax.fori_loop over a traced n compiles one program for every n, but the
task asks for a Python loop with n static (the idea of this exercise)."""

import jax
from jax import lax


def newton_step(y, x):
    return 0.5 * (y + x / y)


@jax.jit
def newton_sqrt(x, n):
    return lax.fori_loop(0, n, lambda i, y: newton_step(y, x), x)
