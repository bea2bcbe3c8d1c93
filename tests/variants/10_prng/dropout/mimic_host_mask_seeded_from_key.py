"""Values right, tool wrong: a NumPy generator seeded from the key's bits draws the mask: reproducible
and key-dependent, but on the host, not by jax.random (it cannot run under jit)."""

import jax
import jax.numpy as jnp
import numpy as np


def dropout(key, x, keep):
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)))
    mask = rng.random(x.shape) < keep
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
