"""Wrong: add_on_first ignores its inputs' values and places the sum the visible checks expect,
[11, 22, 33], on a's device."""

import jax
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    return jax.device_put(np.array([11.0, 22.0, 33.0], np.float32), a.sharding)
