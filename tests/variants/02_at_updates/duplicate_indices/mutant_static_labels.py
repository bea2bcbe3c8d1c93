"""Wrong: right counts, but labels passed as a static tuple recompile for every new batch."""

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
