"""Wrong: searches keystr for "['kernel']" or ".kernel", so an attribute named kernel_init is decayed too."""

import jax


def leaf_paths(params) -> list[str]:
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    def decay(path, leaf):
        text = jax.tree_util.keystr(path)
        return leaf * (1 - rate) if "['kernel']" in text or ".kernel" in text else leaf

    return jax.tree_util.tree_map_with_path(decay, params)
