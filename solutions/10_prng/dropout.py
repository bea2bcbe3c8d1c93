"""Reference solution for prng-5: a Bernoulli mask from the key, inverted scaling."""

import jax
import jax.numpy as jnp


def dropout(key: jax.Array, x: jnp.ndarray, keep: float) -> jnp.ndarray:
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))
