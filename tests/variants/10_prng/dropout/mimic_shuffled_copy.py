"""Values look right, independence wrong: every element of the mask copies one other element, chosen
by a fixed scramble of the positions, so no copy sits next to its source."""

import jax
import jax.numpy as jnp
import numpy as np


def dropout(key, x, keep):
    drawn = jax.random.bernoulli(key, keep, x.shape).reshape(-1)
    n = drawn.size
    order = np.random.default_rng(0).permutation(n)
    source = np.empty(n, dtype=np.int64)
    source[order[: (n + 1) // 2]] = order[: (n + 1) // 2]
    source[order[(n + 1) // 2:]] = order[: n // 2]  # the other half copies the first, scrambled
    return jnp.where(drawn[source].reshape(x.shape), x / keep, jnp.zeros_like(x))
