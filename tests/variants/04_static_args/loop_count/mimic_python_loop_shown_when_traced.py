"""Values right, tool skipped: called, a lax.fori_loop over a traced n does the steps; traced (as a
check reading its program traces it), it shows a jitted Python loop with n static instead, one that
takes a step too many."""

import functools

import jax
from jax import lax


def newton_step(y, x):
    return 0.5 * (y + x / y)


@jax.jit
def _fori(x, n):
    return lax.fori_loop(0, n, lambda i, y: newton_step(y, x), x)


@functools.partial(jax.jit, static_argnames="n")
def _for_show(x, n):
    y = x
    for _ in range(n + 1):
        y = newton_step(y, x)
    return y


def newton_sqrt(x, n):
    return (_for_show if isinstance(x, jax.core.Tracer) else _fori)(x, n=n)
