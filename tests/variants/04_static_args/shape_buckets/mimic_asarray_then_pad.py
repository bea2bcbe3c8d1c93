"""Values right, idea skipped: jnp.asarray then jnp.pad outside jit compile a staging copy and a pad for every length."""

import jax
import jax.numpy as jnp


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _masked_mean(padded, length):
    return jnp.sum(padded) / length


def bucketed_mean(x):
    n = len(x)
    padded = jnp.pad(jnp.asarray(x), (0, next_power_of_two(n) - n))
    return _masked_mean(padded, n)
