"""Values right, independence wrong: draws half the samples and appends them negated; every sample
is distinct and the statistics look normal, yet half of them are copies of the other half."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    half = jax.random.normal(key, ((n + 1) // 2,))
    return jnp.concatenate([half, -half[::-1]])[:n]
