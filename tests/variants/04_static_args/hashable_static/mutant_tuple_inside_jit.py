"""Wrong: tuple() inside the jitted function is too late: jit hashes the list first."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="coeffs")
def polynomial(x, coeffs):
    coeffs = tuple(coeffs)
    result = jnp.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result
