"""Wrong: counts arguments from 1, so argnums=1 for x gives ∂g/∂y, and (1, 2) is out of range."""

import jax


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return jax.grad(g, argnums=1)(x, y)


def dg_dy(x, y):
    return jax.grad(g, argnums=1)(x, y)


def dg_both(x, y):
    return jax.grad(g, argnums=(1, 0))(x, y)
