"""Right, differently: buckets of 32, 64, ..., 256 are 8 shapes; the count matters, not the rule."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _masked_mean(padded, length):
    mask = (jnp.arange(padded.size) < length).astype(padded.dtype)
    return jnp.dot(padded, mask) / length


def bucketed_mean(x):
    n = x.size
    size = -(-n // 32) * 32
    padded = np.zeros(size, dtype=np.float32)
    padded[:n] = x
    return _masked_mean(padded, n)
