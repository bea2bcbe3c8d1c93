"""Right, differently: pads with np.pad and masks with a float weight vector; the length travels as a float32 scalar."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _weighted_mean(padded, length):
    weights = (jnp.arange(padded.shape[0]) < length).astype(padded.dtype)
    return jnp.vdot(weights, padded) / length


def bucketed_mean(x):
    n = len(x)
    return _weighted_mean(np.pad(x, (0, next_power_of_two(n) - n)), np.float32(n))
