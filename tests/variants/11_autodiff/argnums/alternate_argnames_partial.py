"""Right, unusually: jax.grad with functools.partial fixing the other argument by keyword."""

import functools

import jax


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return jax.grad(functools.partial(g, y=y))(x)


def dg_dy(x, y):
    return jax.grad(functools.partial(g, x))(y)


def dg_both(x, y):
    return jax.grad(g, argnums=(0, 1))(x, y)
