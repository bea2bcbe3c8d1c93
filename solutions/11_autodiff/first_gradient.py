"""Reference solution for grad-1: jax.grad and jax.value_and_grad of f."""

import jax
import jax.numpy as jnp


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    return jax.grad(f)(x)


def f_and_df(x):
    return jax.value_and_grad(f)(x)
