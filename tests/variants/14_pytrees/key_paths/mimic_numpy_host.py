"""Wrong: right values eagerly, but each kernel is decayed with NumPy on the host, which cannot run under jit."""

import jax
import numpy as np


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    def decay(path, leaf):
        if any(getattr(k, "key", getattr(k, "name", None)) == "kernel" for k in path):
            return np.asarray(leaf) * (1 - rate)
        return leaf

    return jax.tree_util.tree_map_with_path(decay, params)
