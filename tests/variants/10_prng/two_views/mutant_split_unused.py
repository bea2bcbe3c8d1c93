"""Wrong: splits the key, then forgets the new keys and draws both views from the parent key."""

import jax


def two_views(key, x, sigma=0.1):
    key_a, key_b = jax.random.split(key)
    return (x + sigma * jax.random.normal(key, x.shape),
            x + sigma * jax.random.normal(key, x.shape))
