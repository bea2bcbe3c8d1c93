"""Reference solution for debug-4: a pure_callback that takes the whole batch in one host call."""

import jax
import jax.numpy as jnp
import numpy as np


def host_ranks(x):
    """NumPy, on the host: the rank (0 = smallest) of each entry along the last axis; any leading axes."""
    x = np.asarray(x)
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)


def ranks(x):
    # The result's shape and dtype are declared up front: JAX traces before host_ranks runs.
    # host_ranks handles leading axes, so under vmap one call can take the whole batch.
    result = jax.ShapeDtypeStruct(x.shape, jnp.int32)
    return jax.pure_callback(host_ranks, result, x, vmap_method="broadcast_all")
