"""Wrong: draws every sample from the same key, so all n samples are one number."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    return jnp.stack([jax.random.normal(key) for _ in range(n)])
