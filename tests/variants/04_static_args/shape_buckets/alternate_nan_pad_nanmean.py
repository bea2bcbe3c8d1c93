"""Right answer, another mask: the host pads with NaN to the bucket, and jnp.nanmean under jit skips the padding."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


mean_ignoring_nan = jax.jit(jnp.nanmean)


def bucketed_mean(x):
    padded = np.full(next_power_of_two(len(x)), np.nan, dtype=np.float32)
    padded[: len(x)] = x
    return mean_ignoring_nan(padded)
