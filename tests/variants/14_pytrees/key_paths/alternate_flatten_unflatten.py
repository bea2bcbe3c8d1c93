"""Right, unusually: flatten with paths, decide with keystr's simple form split into keys, then unflatten."""

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
