"""Right, differently: one draw of shape (n,) from the key gives n independent samples."""

import jax


def n_samples(key, n):
    return jax.random.normal(key, (n,))
