"""Right, unusually: b is moved with the array-API method to_device, to a's device."""
import jax
import jax.numpy as jnp
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    return a + b.to_device(next(iter(a.devices())))
