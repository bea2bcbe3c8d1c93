"""Wrong: decays every 2-D leaf, guessing roles from shapes: the embedding is decayed and the 1-D conv kernel is not."""

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    return jax.tree.map(lambda leaf: leaf * (1 - rate) if leaf.ndim == 2 else leaf, params)
