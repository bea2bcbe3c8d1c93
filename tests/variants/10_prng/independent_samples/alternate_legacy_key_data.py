"""Right, unusually: draws from the key's raw (legacy uint32) data, which gives the same stream."""

import jax


def n_samples(key, n):
    return jax.random.normal(jax.random.key_data(key), (n,))
