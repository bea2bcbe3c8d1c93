"""Reference solution for at-2: a scatter-add accumulates repeated indices."""

import jax
import jax.numpy as jnp

NUM_CLASSES = 6


@jax.jit
def class_counts(labels: jnp.ndarray) -> jnp.ndarray:
    # One scatter-add for all labels: every copy of a repeated label adds its 1.
    return jnp.zeros(NUM_CLASSES, dtype=jnp.int32).at[labels].add(1)
