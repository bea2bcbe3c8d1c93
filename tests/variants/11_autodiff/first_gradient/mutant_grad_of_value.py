"""Wrong: jax.grad(f(x)) differentiates a number, not the function; grad needs the function itself."""

import jax


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    return jax.grad(lambda y: f(x))(x)


def f_and_df(x):
    return f(x), df(x)
