"""Values right, key use wrong: splits the key but still draws view_a from the parent key, which the
split already spent; the views look independent, yet one key fed two operations."""

import jax


def two_views(key, x, sigma=0.1):
    _, key_b = jax.random.split(key)
    return (x + sigma * jax.random.normal(key, x.shape),
            x + sigma * jax.random.normal(key_b, x.shape))
