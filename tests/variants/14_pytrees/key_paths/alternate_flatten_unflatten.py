"""Right, unusually: flatten with paths, name each key from its fields, then unflatten."""

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree.leaves_with_path(params)]


def _name(key):
    return getattr(key, "key", getattr(key, "name", None))  # DictKey.key, GetAttrKey.name


def decay_kernels(params, rate):
    pairs, treedef = jax.tree.flatten_with_path(params)
    leaves = [leaf * (1 - rate) if any(_name(k) == "kernel" for k in path) else leaf for path, leaf in pairs]
    return jax.tree.unflatten(treedef, leaves)
