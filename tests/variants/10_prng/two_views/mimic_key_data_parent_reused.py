"""Values right, key use wrong: splits the key's raw bits (jax.random.key_data) but still draws view_a
from them, so one key feeds two operations; the run-time checker follows typed keys only."""

import jax


def two_views(key, x, sigma=0.1):
    raw = jax.random.key_data(key)
    _, key_b = jax.random.split(raw)
    return (x + sigma * jax.random.normal(raw, x.shape),
            x + sigma * jax.random.normal(key_b, x.shape))
