"""Wrong: padding helps nothing when the length is static; each length is its own program."""

import functools

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@functools.partial(jax.jit, static_argnums=1)
def _masked_mean(padded, length):
    return jnp.sum(padded[:length]) / length


def bucketed_mean(x):
    n = x.shape[0]
    padded = np.zeros(next_power_of_two(n), dtype=np.float32)
    padded[:n] = x
    return _masked_mean(padded, n)
