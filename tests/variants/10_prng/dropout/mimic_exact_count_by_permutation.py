"""Values look right, independence wrong: keeps exactly round(keep * n) elements, the first ones of a
random permutation. The kept fraction, the scaling and the key dependence are right, and the mask varies
per element, but the elements are not kept independently: the kept count never varies from key to key."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    n_kept = round(keep * x.size)
    mask = (jax.random.permutation(key, x.size) < n_kept).reshape(x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
