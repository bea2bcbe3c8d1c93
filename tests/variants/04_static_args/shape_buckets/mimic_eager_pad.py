"""Values right, idea skipped: jnp.pad outside jit is an eager op, compiled for every input length it meets."""

import jax
import jax.numpy as jnp


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _masked_mean(padded, length):
    valid = jnp.arange(padded.shape[0]) < length
    return jnp.sum(jnp.where(valid, padded, 0.0)) / length


def bucketed_mean(x):
    n = x.shape[0]
    padded = jnp.pad(x, (0, next_power_of_two(n) - n))
    return _masked_mean(padded, n)
