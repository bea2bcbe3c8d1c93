"""Wrong: renders the paths in keystr's simple form ("dense/kernel"), not the default one the task asks for."""

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path, simple=True, separator="/")
            for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: leaf * (1 - rate)
        if "kernel" in jax.tree_util.keystr(path, simple=True, separator="/").split("/") else leaf, params)
