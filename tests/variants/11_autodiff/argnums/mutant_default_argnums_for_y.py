"""Wrong: dg_dy forgets argnums, so it returns ∂g/∂x; dg_both differentiates x only."""

import jax


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    return jax.grad(g)(x, y)


def dg_dy(x, y):
    return jax.grad(g)(x, y)


def dg_both(x, y):
    return jax.grad(g, argnums=0)(x, y)
