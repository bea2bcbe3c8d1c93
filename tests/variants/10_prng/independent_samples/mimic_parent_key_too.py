"""Values right, key use wrong: the first sample comes from the parent key, which is then split too,
so one key feeds two draws (the samples still look independent, but the key is reused)."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    first = jax.random.normal(key)
    rest = jax.vmap(jax.random.normal)(jax.random.split(key, n - 1))
    return jnp.concatenate([first[None], rest])
