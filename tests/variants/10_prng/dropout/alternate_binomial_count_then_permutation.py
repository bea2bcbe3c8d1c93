"""Right, another route: draws how many elements to keep from Binomial(n, keep), then keeps that many
elements picked by a random permutation. A Binomial count spread uniformly over the elements is the
same distribution as one independent keep-or-drop draw per element."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    count_key, order_key = jax.random.split(key)
    n_kept = jax.random.binomial(count_key, x.size, keep)
    mask = (jax.random.permutation(order_key, x.size) < n_kept).reshape(x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
