"""Wrong: finds kernels by a pattern over keystr's text instead of comparing each key whole, so a
dict key such as "enc.kernel" is decayed too."""

import re

import jax


def leaf_paths(params) -> list[str]:
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


_KERNEL = re.compile(r"\['kernel'\]|\.kernel\b")


def decay_kernels(params, rate):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: leaf * (1 - rate) if _KERNEL.search(jax.tree_util.keystr(path)) else leaf, params)
