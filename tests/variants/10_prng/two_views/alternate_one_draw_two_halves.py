"""Right, differently: one draw with a leading axis of 2, one slice per view."""

import jax


def two_views(key, x, sigma=0.1):
    noise = sigma * jax.random.normal(key, (2, *x.shape))
    return x + noise[0], x + noise[1]
