"""Wrong: independent views, but from a key made inside: every caller's key gives the same noise."""

import jax


def two_views(key, x, sigma=0.1):
    key_a, key_b = jax.random.split(jax.random.key(0))
    return (x + sigma * jax.random.normal(key_a, x.shape),
            x + sigma * jax.random.normal(key_b, x.shape))
