"""Mimic: the sum is computed with NumPy on the host and slipped onto a's device by adding it to a * 0: right values and device, the add never ran there."""
import jax
import jax.numpy as jnp
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    total = np.asarray(a) + np.asarray(b)
    return a * 0 + total
