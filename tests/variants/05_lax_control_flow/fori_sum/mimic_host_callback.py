"""Values right, place wrong: a pure_callback sums the range in Python on the host, outside the program."""

import jax
import jax.numpy as jnp
import numpy as np


def _host_sum(lower, upper):
    return np.int32(sum(range(int(lower), int(upper))))


@jax.jit
def sum_range(lower, upper):
    return jax.pure_callback(_host_sum, jax.ShapeDtypeStruct((), jnp.int32), lower, upper)
