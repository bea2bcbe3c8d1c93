"""Wrong: one draw, used as +noise and -noise: the views differ, but their noise is perfectly anti-correlated."""

import jax


def two_views(key, x, sigma=0.1):
    noise = sigma * jax.random.normal(key, x.shape)
    return x + noise, x - noise
