"""Reference solution for prng-1: one draw with a shape gives n independent samples."""

import jax
import jax.numpy as jnp


def n_samples(key: jax.Array, n: int) -> jnp.ndarray:
    # One draw, one key: the shape asks for n numbers, which are independent.
    return jax.random.normal(key, (n,))
