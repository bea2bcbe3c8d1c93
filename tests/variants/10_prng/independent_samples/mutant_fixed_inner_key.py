"""Wrong: a key made inside the function ignores the caller's key: every key gives the same samples."""

import jax


def n_samples(key, n):
    return jax.random.normal(jax.random.key(42), (n,))
