"""Values right, idea skipped: NumPy computes the mean on the host; no bucket and no compiled program at all."""

import numpy as np


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


def bucketed_mean(x):
    return np.float32(np.mean(x, dtype=np.float64))
