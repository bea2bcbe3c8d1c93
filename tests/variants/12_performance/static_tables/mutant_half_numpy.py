"""Wrong: the angles come from NumPy, but jnp.cos/jnp.sin on them are still traced into the program."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    k = np.arange(n)
    angles = 2 * np.pi * np.outer(k, k) / n
    return (frames @ jnp.cos(angles)) ** 2 + (frames @ jnp.sin(angles)) ** 2
