"""Values right, mechanism wrong: a radix-2 FFT written out with jnp (no fft primitive), its small
twiddle vectors from NumPy: no table, so no product with one."""

import jax
import jax.numpy as jnp
import numpy as np


def _fft(x):
    n = x.shape[-1]
    if n == 1:
        return x
    even, odd = _fft(x[..., ::2]), _fft(x[..., 1::2])
    twiddled = np.exp(-2j * np.pi * np.arange(n // 2) / n).astype(np.complex64) * odd
    return jnp.concatenate([even + twiddled, even - twiddled], axis=-1)


@jax.jit
def power_spectrum(frames):
    spectrum = _fft(frames.astype(jnp.complex64))
    return spectrum.real**2 + spectrum.imag**2
