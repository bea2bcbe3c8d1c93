"""Values right, idea skipped: labels passed as a static tuple are compile-time constants, so every new batch compiles a new program."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

NUM_CLASSES = 6


@partial(jax.jit, static_argnums=0)
def _count(labels):
    counts = jnp.zeros(NUM_CLASSES, dtype=jnp.int32)
    for label in set(labels):
        counts = counts.at[label].set(labels.count(label))
    return counts


def class_counts(labels):
    return _count(tuple(np.asarray(labels).tolist()))
