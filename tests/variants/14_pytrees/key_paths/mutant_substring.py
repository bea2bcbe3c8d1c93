"""Wrong: tests "kernel" as a substring of keystr, so 'kernel_scale' and 'kernels' are decayed too."""

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: leaf * (1 - rate) if "kernel" in jax.tree_util.keystr(path) else leaf, params)
