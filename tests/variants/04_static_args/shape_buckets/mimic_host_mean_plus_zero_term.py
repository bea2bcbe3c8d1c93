"""Values right, mechanism wrong: the mean is computed on the host; the jitted function gets the
padded bucket only to add a term that is zero on the data (its sum minus the host's sum), so the
result moves when the bucket does, but not as a mean of it would."""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


@jax.jit
def _finish(padded, host_mean, host_sum):
    return host_mean + (jnp.sum(padded) - host_sum)


def bucketed_mean(x):
    n = len(x)
    padded = np.zeros(next_power_of_two(n), np.float32)
    padded[:n] = x
    host_mean = np.float32(np.mean(x.astype(np.float64)))
    host_sum = np.float32(np.sum(padded))
    return _finish(padded, host_mean, host_sum)
