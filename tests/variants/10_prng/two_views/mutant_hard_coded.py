"""Wrong: scales the noise by the literal 0.1 the visible checks pass as sigma, ignoring the argument."""

import jax


def two_views(key, x, sigma=0.1):
    key_a, key_b = jax.random.split(key)
    return (x + 0.1 * jax.random.normal(key_a, x.shape),
            x + 0.1 * jax.random.normal(key_b, x.shape))
