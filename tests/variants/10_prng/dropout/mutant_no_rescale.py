"""Wrong: forgets the 1/keep scaling, so the expected output shrinks by a factor of keep."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x, 0.0)
