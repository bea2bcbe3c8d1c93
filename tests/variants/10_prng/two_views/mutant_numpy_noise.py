"""Wrong: NumPy's global random state gives different noise every call, whatever the key."""

import jax.numpy as jnp
import numpy as np


def two_views(key, x, sigma=0.1):
    a = np.random.standard_normal(x.shape).astype(np.float32)
    b = np.random.standard_normal(x.shape).astype(np.float32)
    return x + sigma * jnp.asarray(a), x + sigma * jnp.asarray(b)
