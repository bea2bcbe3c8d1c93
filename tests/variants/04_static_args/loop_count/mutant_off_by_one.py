"""Wrong: `while i <= n` runs one Newton step too many."""

import functools

import jax


def newton_step(y, x):
    return 0.5 * (y + x / y)


@functools.partial(jax.jit, static_argnames="n")
def newton_sqrt(x, n):
    y = x
    i = 0
    while i <= n:
        y = newton_step(y, x)
        i += 1
    return y
