"""Right, differently: derive each view's key with fold_in (which does not spend the parent key)."""

import jax


def two_views(key, x, sigma=0.1):
    views = [x + sigma * jax.random.normal(jax.random.fold_in(key, i), x.shape) for i in (0, 1)]
    return views[0], views[1]
