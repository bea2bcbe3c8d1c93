"""Wrong: right values, but the whole array goes to the host, is rolled there and comes back on one device."""

import jax.numpy as jnp
import numpy as np


def ring_shift(x, mesh):
    block = x.shape[0] // mesh.shape["data"]
    return jnp.asarray(np.roll(np.asarray(x), block, axis=0))
