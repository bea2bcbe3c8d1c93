"""Values look right, independence wrong: draws a full-size mask but keeps only its first half, the
second half being the first reversed. Every element is kept with probability keep, the count varies
with the key, no row or column repeats, yet each element is dropped exactly when its mirror is."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    drawn = jax.random.bernoulli(key, keep, x.shape).reshape(-1)
    half = (drawn.size + 1) // 2
    mask = jnp.concatenate([drawn[:half], drawn[:drawn.size - half][::-1]]).reshape(x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
