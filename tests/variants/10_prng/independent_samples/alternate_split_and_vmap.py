"""Right, longer: split the key into n keys and vmap a scalar draw over them, one key per sample."""

import jax


def n_samples(key, n):
    return jax.vmap(jax.random.normal)(jax.random.split(key, n))
