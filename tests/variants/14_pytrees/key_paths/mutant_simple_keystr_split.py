"""Wrong: splits keystr's simple form on "/" to find the keys, so a dict key that holds a "/" (such as
"kernel/0") reads as two keys, one of them "kernel"; a key compared whole is not."""

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree.leaves_with_path(params)]


def decay_kernels(params, rate):
    pairs, treedef = jax.tree.flatten_with_path(params)
    leaves = []
    for path, leaf in pairs:
        keys = jax.tree_util.keystr(path, simple=True, separator="/").split("/")
        leaves.append(leaf * (1 - rate) if "kernel" in keys else leaf)
    return jax.tree.unflatten(treedef, leaves)
