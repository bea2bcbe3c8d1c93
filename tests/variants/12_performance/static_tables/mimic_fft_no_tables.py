"""Values right, mechanism wrong: the spectrum by jnp.fft, with no table at all. The task keeps the two
table products and asks for the tables as constants; an FFT skips the lesson."""

import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(frames):
    spectrum = jnp.fft.fft(frames)
    return spectrum.real**2 + spectrum.imag**2
