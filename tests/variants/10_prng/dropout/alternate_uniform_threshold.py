"""Right, differently: compare uniform draws with `keep` and multiply by the mask."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    mask = (jax.random.uniform(key, x.shape) < keep).astype(x.dtype)
    return x * mask / keep
