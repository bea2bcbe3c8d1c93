"""Right, differently: zero padding adds nothing to a sum, so sum / length needs no mask."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _sum_over_length(padded, length):
    return jnp.sum(padded) / length


def bucketed_mean(x):
    n = len(x)
    padded = np.pad(x, (0, next_power_of_two(n) - n))
    return _sum_over_length(jnp.asarray(padded), jnp.int32(n))
