"""Right: jax.jit(f, static_argnums=1) on a helper, with the list turned into a tuple before the call."""

import jax
import jax.numpy as jnp


def _horner(x, coeffs):
    result = jnp.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


_polynomial = jax.jit(_horner, static_argnums=1)


def polynomial(x, coeffs):
    return _polynomial(x, tuple(coeffs))
