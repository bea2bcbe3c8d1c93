"""Reference solution for static-4: hand jit a tuple, which hashes by value."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="coeffs")
def _polynomial(x: jnp.ndarray, coeffs: tuple[float, ...]) -> jnp.ndarray:
    result = jnp.zeros_like(x)
    for c in coeffs:  # Horner's rule
        result = result * x + c
    return result


def polynomial(x: jnp.ndarray, coeffs: list[float]) -> jnp.ndarray:
    # The conversion happens outside jit: equal lists give equal tuples, so a
    # repeated set of coefficients finds its compiled program in the cache.
    return _polynomial(x, tuple(coeffs))
