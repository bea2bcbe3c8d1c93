"""Wrong: multiplies every leaf, the others by 1.0, which turns the int32 step counter into a float."""

import jax
import jax.numpy as jnp


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    def scale(path, leaf):
        named = any(getattr(k, "key", getattr(k, "name", None)) == "kernel" for k in path)
        return leaf * jnp.where(named, 1 - rate, 1.0)

    return jax.tree_util.tree_map_with_path(scale, params)
