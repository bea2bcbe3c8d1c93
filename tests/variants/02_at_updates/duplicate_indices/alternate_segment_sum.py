"""Right, unusually: jax.ops.segment_sum of ones, with the classes as segment ids (a scatter-add underneath)."""

import jax
import jax.numpy as jnp

NUM_CLASSES = 6


@jax.jit
def class_counts(labels):
    return jax.ops.segment_sum(jnp.ones_like(labels, dtype=jnp.int32), labels, num_segments=NUM_CLASSES)
