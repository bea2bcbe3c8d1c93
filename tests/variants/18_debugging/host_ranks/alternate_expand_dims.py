"""Right, unusually: vmap_method="expand_dims" (one argument, so the same single call as broadcast_all), result spec from jax.typeof."""

import jax
import jax.numpy as jnp
import numpy as np


def host_ranks(x):
    """NumPy, on the host: the rank (0 = smallest) of each entry along the last axis; any leading axes."""
    x = np.asarray(x)
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)



def ranks(x):
    spec = jax.ShapeDtypeStruct(jax.typeof(x).shape, np.int32)
    return jax.pure_callback(host_ranks, spec, x, vmap_method="expand_dims")
