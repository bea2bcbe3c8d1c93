"""Wrong: draws the noise once (no key reused) and adds the same noise to both views."""

import jax


def two_views(key, x, sigma=0.1):
    noise = sigma * jax.random.normal(key, x.shape)
    return x + noise, x + noise
