"""Right answer, another mask: the host builds a boolean mask of the bucket's size beside the padded input."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _mean_where(padded, valid):
    return jnp.mean(padded, where=valid)


def bucketed_mean(x):
    size = next_power_of_two(len(x))
    padded = np.zeros(size, np.float32)
    padded[: len(x)] = x
    return _mean_where(padded, np.arange(size) < len(x))
