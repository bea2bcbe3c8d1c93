"""Reference solution for prng-1: one new key per sample."""

import jax
import jax.numpy as jnp


def n_samples(key: jax.Array, n: int) -> jnp.ndarray:
    # The parent key is spent by the split; each child key feeds exactly one draw.
    keys = jax.random.split(key, n)
    return jax.vmap(jax.random.normal)(keys)
