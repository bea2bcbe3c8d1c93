"""Values right, key use wrong: the parent key's raw bits (jax.random.key_data) feed the first sample
and are then split for the rest, so one key feeds two operations; the run-time checker follows typed
keys only and sees nothing."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    raw = jax.random.key_data(key)
    first = jax.random.normal(raw)
    rest = jax.vmap(jax.random.normal)(jax.random.split(raw, n - 1))
    return jnp.concatenate([first[None], rest])
