"""Gradients right, but with custom_vjp: reverse mode only, so jax.jvp (forward mode) cannot run through it."""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def norm(x):
    return jnp.sqrt(jnp.sum(x * x))


def _fwd(x):
    n = norm(x)
    return n, (x, n)


def _bwd(residuals, g):
    x, n = residuals
    return (g * x / jnp.where(n == 0, 1.0, n),)


norm.defvjp(_fwd, _bwd)
