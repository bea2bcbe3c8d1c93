"""Reference solution for pytree-2: read each leaf's key path; decide by the keys, not the shapes."""

import jax
from jax.tree_util import DictKey, GetAttrKey


def leaf_paths(params) -> list[str]:
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def _is_kernel(path) -> bool:
    # Compare whole keys: a substring test on keystr would also catch "kernel_scale".
    return any((isinstance(k, DictKey) and k.key == "kernel") or (isinstance(k, GetAttrKey) and k.name == "kernel")
               for k in path)


def decay_kernels(params, rate):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: leaf * (1 - rate) if _is_kernel(path) else leaf, params)
