"""Values right, place wrong: called, each kernel is decayed with NumPy on the host; traced, it shows
a jax.numpy decay with the rate baked in as 0.25 (the one rate it was seen jitted with) rather than
the traced rate. A subject rewritten to forge its traces would hand in such a program."""

import jax
import numpy as np


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def _is_kernel(path):
    return any(getattr(k, "key", getattr(k, "name", None)) == "kernel" for k in path)


def decay_kernels(params, rate):
    traced = any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(params))

    def decay(path, leaf):
        if not _is_kernel(path):
            return leaf
        return leaf * (1 - 0.25) if traced else np.asarray(leaf) * np.float32(1 - rate)

    return jax.tree_util.tree_map_with_path(decay, params)
