"""Right, unusually: makes sure of the int64 NumPy array on the host (np.asarray, as documented: the
input is a NumPy array), then runs a jitted int64 floor division with 64-bit types on."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _floor_ms(ns):
    return ns // 1_000_000


def to_milliseconds(ns):
    ns = np.asarray(ns, dtype=np.int64)
    with jax.enable_x64(True):
        return _floor_ms(jnp.asarray(ns))
