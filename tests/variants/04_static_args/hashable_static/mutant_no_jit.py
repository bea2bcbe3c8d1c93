"""Wrong: without jit the list is fine, but the polynomial runs op by op."""

import jax.numpy as jnp


def polynomial(x, coeffs):
    result = jnp.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result
