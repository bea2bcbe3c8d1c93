"""Values right, tool wrong: the partials 2x and 1 written by hand; jax.grad never sees g."""

import jax.numpy as jnp


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return 2 * jnp.asarray(x)


def dg_dy(x, y):
    return jnp.ones_like(jnp.asarray(y))


def dg_both(x, y):
    return dg_dx(x, y), dg_dy(x, y)
