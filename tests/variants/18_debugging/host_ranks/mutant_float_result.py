"""Wrong: declares a float32 result and casts back, so the ranks come out as floats."""

import jax
import jax.numpy as jnp
import numpy as np


def host_ranks(x):
    """NumPy, on the host: the rank (0 = smallest) of each entry along the last axis; any leading axes."""
    x = np.asarray(x)
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)



def ranks(x):
    out = jax.pure_callback(lambda v: host_ranks(v).astype(np.float32), jax.ShapeDtypeStruct(x.shape, jnp.float32),
                            x, vmap_method="broadcast_all")
    return out
