"""Wrong: a forward finite difference: approximate, and float() cannot run under jit or vmap."""

import jax


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    x = float(x)
    h = 1e-2
    return (f(x + h) - f(x)) / h


def f_and_df(x):
    return jax.value_and_grad(f)(x)
