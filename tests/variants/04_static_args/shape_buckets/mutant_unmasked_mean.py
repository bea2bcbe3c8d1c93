"""Wrong: averaging the whole padded array counts the zero padding and shrinks the mean."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _mean(padded):
    return jnp.mean(padded)


def bucketed_mean(x):
    n = x.shape[0]
    padded = np.zeros(next_power_of_two(n), dtype=np.float32)
    padded[:n] = x
    return _mean(padded)
