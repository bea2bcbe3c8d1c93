"""Values right, idea skipped: jit lets XLA merge duplicates in the compiled code, but the traced program still repeats them."""

import jax
import jax.numpy as jnp


@jax.jit
def score(x1, x2):
    return (x1 / x2 - jnp.exp(x2)) * (jnp.sin(x1 / x2) + x1 / x2 - jnp.exp(x2))
