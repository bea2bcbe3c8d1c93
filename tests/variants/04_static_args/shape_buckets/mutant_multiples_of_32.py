"""Wrong rule: buckets of 32, 64, ..., 256 are 8 shapes, under the budget, but the task pads to
next_power_of_two(len(x)): a length-3 input computes on 32 values instead of 4."""

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
