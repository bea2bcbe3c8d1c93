"""Values right, idea skipped: a wrapper object hashes by identity, so every call misses the cache and recompiles."""

import functools

import jax
import jax.numpy as jnp


class _Coeffs:
    def __init__(self, values):
        self.values = list(values)


@functools.partial(jax.jit, static_argnames="coeffs")
def _polynomial(x, coeffs):
    result = jnp.zeros_like(x)
    for c in coeffs.values:
        result = result * x + c
    return result


def polynomial(x, coeffs):
    return _polynomial(x, _Coeffs(coeffs))
