"""Wrong: tuple fix right, but reading coefficients lowest power first is another polynomial."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def _polynomial(x, coeffs):
    result = jnp.zeros_like(x)
    for c in reversed(coeffs):
        result = result * x + c
    return result


def polynomial(x, coeffs):
    return _polynomial(x, tuple(coeffs))
