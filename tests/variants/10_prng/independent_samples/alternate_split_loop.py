"""Right, differently: the classic `key, subkey = split(key)` loop, one subkey per draw."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    samples = []
    for _ in range(n):
        key, subkey = jax.random.split(key)
        samples.append(jax.random.normal(subkey))
    return jnp.stack(samples)
