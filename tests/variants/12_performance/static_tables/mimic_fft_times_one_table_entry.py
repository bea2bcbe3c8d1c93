"""Values right, mechanism wrong: the spectrum from jnp.fft, multiplied by a NumPy cosine table's corner
entry cos(0) = 1, so the table is held and nudging it moves the result; no product with the table."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    k = np.arange(n)
    cos_table = np.cos(2 * np.pi * (np.outer(k, k) % n) / n).astype(np.float32)
    spectrum = jnp.fft.fft(frames)
    power = spectrum.real ** 2 + spectrum.imag ** 2
    return power * jnp.asarray(cos_table)[0, 0]
