"""Values right, idea skipped: the jitted mean sees every length as a new shape and recompiles."""

import jax
import jax.numpy as jnp


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _mean(x):
    return jnp.mean(x)


def bucketed_mean(x):
    return _mean(x)
