"""Values right, idea skipped: the right scatter-add, but without jit each call runs op by op instead of as one compiled program."""

import jax.numpy as jnp

NUM_CLASSES = 6


def class_counts(labels):
    return jnp.zeros(NUM_CLASSES, dtype=jnp.int32).at[labels].add(1)
