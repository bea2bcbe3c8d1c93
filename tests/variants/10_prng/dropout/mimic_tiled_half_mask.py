"""Values look right, independence wrong: draws a mask for the first half of the rows and tiles it over
the second half; the kept fraction, the scaling and the key dependence are all right, and no row or
column repeats, yet half the mask is a copy."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    rows = x.shape[0]
    half = jax.random.bernoulli(key, keep, ((rows + 1) // 2,) + x.shape[1:])
    mask = jnp.concatenate([half, half])[:rows]
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
