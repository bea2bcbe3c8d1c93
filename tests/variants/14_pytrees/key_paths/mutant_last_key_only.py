"""Wrong: looks only at the last key of each path, so leaves below a "kernel" node (experts.kernel[0]) are missed."""

import jax


def leaf_paths(params) -> list[str]:
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    def decay(path, leaf):
        last = path[-1]
        return leaf * (1 - rate) if getattr(last, "key", getattr(last, "name", None)) == "kernel" else leaf

    return jax.tree_util.tree_map_with_path(decay, params)
