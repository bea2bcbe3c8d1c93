"""Wrong: the first sample comes from the parent key, which is then split too (a key used twice)."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    first = jax.random.normal(key)
    rest = jax.vmap(jax.random.normal)(jax.random.split(key, n - 1))
    return jnp.concatenate([first[None], rest])
