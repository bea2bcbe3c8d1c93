"""Values right, idea skipped: jitting a fresh functools.partial on every call recompiles every time."""

import functools

import jax


def newton_step(y, x):
    return 0.5 * (y + x / y)


def _loop(x, n):
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return y


def newton_sqrt(x, n):
    return jax.jit(functools.partial(_loop, n=n))(x)
