"""Wrong: right values and no trig in the program, but the tables are rebuilt by NumPy on every call and handed to the jitted part as arguments: the program holds no constants, and n*n values cross to the device each call."""

import jax
import numpy as np


@jax.jit
def _spectrum(frames, cos_table, sin_table):
    return (frames @ cos_table) ** 2 + (frames @ sin_table) ** 2


def power_spectrum(frames):
    n = frames.shape[-1]
    angles = 2 * np.pi * np.outer(np.arange(n), np.arange(n)) / n
    return _spectrum(frames, np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32))
