"""Values right, idea skipped: b read to the host and written into a program on a's device as Python
numbers, one literal per element: no constant array, no device_put of b, a round trip through the host."""

import jax
import jax.numpy as jnp
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    host = np.asarray(b)                      # device -> host copy of b
    vals = [float(v) for v in host.ravel()]   # plain Python floats
    shape = host.shape

    def add(a):
        flat = jnp.stack([jnp.asarray(v, a.dtype) for v in vals])  # literals, no constant array
        return a + flat.reshape(shape)

    return jax.jit(add)(a)
