"""Wrong: copies the dict but updates the NumPy arrays inside it in place (`-=`)."""

import numpy as np


def sgd_update(params, grads, lr):
    new = {name: np.asarray(value) for name, value in params.items()}
    for name in new:
        new[name] -= lr * np.asarray(grads[name])
    return new
