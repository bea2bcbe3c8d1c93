"""Right: functools.partial(jax.jit, static_argnums=1) as a decorator, and a for loop over range(n)."""

import functools

import jax


def newton_step(y, x):
    return 0.5 * (y + x / y)


@functools.partial(jax.jit, static_argnums=1)
def newton_sqrt(x, n):
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return y
