"""Wrong: returns (gradient, value); jax.value_and_grad gives the value first."""

import jax


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    return jax.grad(f)(x)


def f_and_df(x):
    value, grad = jax.value_and_grad(f)(x)
    return grad, value
