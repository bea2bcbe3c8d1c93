"""Values and placement right, work wrong: adds on the host with NumPy inside jax.transfer_guard("allow"),
which overrides the checks' own guard for the block, and places the sum on a's device."""

import jax
import numpy as np


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    with jax.transfer_guard("allow"):
        return jax.device_put(np.asarray(a) + np.asarray(b), a.sharding)
