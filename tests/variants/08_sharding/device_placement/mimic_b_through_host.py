"""Mimic: b is copied to the host (np.asarray) and NumPy broadcasting brings it onto a's device implicitly: right sum on the right device, via a host round trip."""
import jax
import jax.numpy as jnp
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    return a + np.asarray(b)
