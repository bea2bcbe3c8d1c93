"""Values right, idea skipped: newton_step is jitted and the Python loop runs outside it, one dispatch per step; n is never static."""

import jax


@jax.jit
def newton_step(y, x):
    return 0.5 * (y + x / y)


def newton_sqrt(x, n):
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return y
