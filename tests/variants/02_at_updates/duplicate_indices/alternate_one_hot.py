"""Right, unusually: sum one-hot rows (more work than a scatter-add, same counts)."""

import jax
import jax.numpy as jnp

NUM_CLASSES = 6


@jax.jit
def class_counts(labels):
    return jax.nn.one_hot(labels, NUM_CLASSES, dtype=jnp.int32).sum(axis=0)
