"""Values right, tool wrong: NumPy's generator seeded from the key's bits gives reproducible,
independent noise, but on the host instead of jax.random (it cannot run under jit)."""

import jax
import jax.numpy as jnp
import numpy as np


def two_views(key, x, sigma=0.1):
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)))
    a = rng.standard_normal(x.shape).astype(np.float32)
    b = rng.standard_normal(x.shape).astype(np.float32)
    return x + sigma * jnp.asarray(a), x + sigma * jnp.asarray(b)
