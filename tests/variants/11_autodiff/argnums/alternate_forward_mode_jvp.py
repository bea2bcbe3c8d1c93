"""Right, in forward mode: each partial is jax.jvp of g with a tangent of 1 on one argument. For scalar
arguments it is the same derivative at the same cost, and the task's words accept it."""

import jax
import jax.numpy as jnp


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return jax.jvp(lambda a: g(a, y), (x,), (jnp.ones_like(x),))[1]


def dg_dy(x, y):
    return jax.jvp(lambda b: g(x, b), (y,), (jnp.ones_like(y),))[1]


def dg_both(x, y):
    return dg_dx(x, y), dg_dy(x, y)
