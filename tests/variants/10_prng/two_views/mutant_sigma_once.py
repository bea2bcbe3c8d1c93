"""Wrong: the second view's noise is not scaled by sigma."""

import jax


def two_views(key, x, sigma=0.1):
    key_a, key_b = jax.random.split(key)
    return (x + sigma * jax.random.normal(key_a, x.shape),
            x + jax.random.normal(key_b, x.shape))
