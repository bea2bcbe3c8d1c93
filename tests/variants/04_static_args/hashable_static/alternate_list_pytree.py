"""Right, differently: not static at all; a list is a pytree, so jit traces each coefficient."""

import jax
import jax.numpy as jnp


@jax.jit
def polynomial(x, coeffs):
    result = jnp.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result
