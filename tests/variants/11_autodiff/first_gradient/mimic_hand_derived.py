"""Values right, tool wrong: the derivative 4x + 3 worked out by hand; JAX never differentiates f, so a
change to f would leave df behind."""

import jax.numpy as jnp


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    return 4 * jnp.asarray(x) + 3


def f_and_df(x):
    return f(x), df(x)
