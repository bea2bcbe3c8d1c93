"""Values right, mechanism wrong: a NumPy table is held as a constant and multiplied in, but only as a
difference of equal products; the spectrum comes from jnp.fft."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    table = np.cos(2 * np.pi * (np.outer(np.arange(n), np.arange(n)) % n) / n).astype(np.float32)
    spectrum = jnp.fft.fft(frames)
    return spectrum.real**2 + spectrum.imag**2 + (frames @ table - frames @ table)
