"""Wrong: all on the host with NumPy: nothing goes back to the device, but the data left it and the result is a NumPy array."""

import numpy as np


def standardize(x):
    host = np.asarray(x)
    return (host - host.mean(axis=0)) / host.std(axis=0)
