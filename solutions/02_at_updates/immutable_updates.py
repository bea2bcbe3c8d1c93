"""Reference solution for at-1: functional updates with .at[...]."""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights: jnp.ndarray, banned: jnp.ndarray, boosted: jnp.ndarray,
             damped: jnp.ndarray) -> jnp.ndarray:
    # Each .at update returns a new array; the caller's `weights` is never changed.
    weights = weights.at[banned].set(0.0)
    weights = weights.at[boosted].add(BONUS)
    return weights.at[damped].multiply(FACTOR)
