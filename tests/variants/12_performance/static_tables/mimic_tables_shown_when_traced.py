"""Values right, program wrong: called, the spectrum comes from NumPy's FFT on the host, no jit at all;
traced (as a check reading its program traces it), it shows a jitted program with NumPy tables as
constants instead, one that adds the two halves of the spectrum where it should square them."""

import jax
import numpy as np


@jax.jit
def _for_show(frames):
    n = frames.shape[-1]
    angles = 2 * np.pi * (np.outer(np.arange(n), np.arange(n)) % n) / n
    return frames @ np.cos(angles).astype(np.float32) + frames @ np.sin(angles).astype(np.float32)


def power_spectrum(frames):
    if isinstance(frames, jax.core.Tracer):
        return _for_show(frames)
    spectrum = np.abs(np.fft.fft(np.asarray(frames, np.float64))) ** 2
    return spectrum.astype(np.float32)
