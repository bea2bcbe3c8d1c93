"""Wrong: uses `keep` as the drop probability, so keep=0.8 keeps only 20%."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    mask = jax.random.bernoulli(key, 1 - keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)
