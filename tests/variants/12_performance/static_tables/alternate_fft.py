"""Right, unusually: jnp.fft needs no table at all."""

import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(frames):
    spectrum = jnp.fft.fft(frames)
    return spectrum.real**2 + spectrum.imag**2
