"""Values right, idea skipped: a Python loop over the labels is unrolled into one scatter per label."""

import jax
import jax.numpy as jnp

NUM_CLASSES = 6


@jax.jit
def class_counts(labels):
    counts = jnp.zeros(NUM_CLASSES, dtype=jnp.int32)
    for label in labels:
        counts = counts.at[label].add(1)
    return counts
