"""Mimic: adds with NumPy on the host and device_puts the sum onto a's device: no device did the add."""

import jax
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    return jax.device_put(np.asarray(a) + np.asarray(b), a.sharding)
