"""Wrong: independent draws, but uniform on [0, 1) rather than standard normal."""

import jax


def n_samples(key, n):
    return jax.vmap(jax.random.uniform)(jax.random.split(key, n))
