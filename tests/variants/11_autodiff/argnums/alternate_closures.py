"""Right, differently: close over the fixed argument and differentiate a one-argument function."""

import jax


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return jax.grad(lambda a: g(a, y))(x)


def dg_dy(x, y):
    return jax.grad(lambda b: g(x, b))(y)


def dg_both(x, y):
    return dg_dx(x, y), dg_dy(x, y)
