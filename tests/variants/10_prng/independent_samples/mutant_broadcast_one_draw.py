"""Wrong: one draw copied n times; the key is used once, but the samples are not independent."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    return jnp.full((n,), jax.random.normal(key))
