"""Wrong: only looks at dict keys, so a registered class's `kernel` attribute (a GetAttrKey) is missed."""

import jax
from jax.tree_util import DictKey


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: leaf * (1 - rate)
        if any(isinstance(k, DictKey) and k.key == "kernel" for k in path) else leaf, params)
