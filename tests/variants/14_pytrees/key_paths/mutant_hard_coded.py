"""Wrong: hard-codes where the visible tree keeps its kernels (only the hidden check catches it)."""

import copy

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def decay_kernels(params, rate):
    out = copy.copy(params)
    out["dense"] = dict(params["dense"], kernel=params["dense"]["kernel"] * (1 - rate))
    out["conv"] = dict(params["conv"], kernel=params["conv"]["kernel"] * (1 - rate))
    first, second = params["blocks"]
    first = dict(first, attn=dict(first["attn"], kernel=first["attn"]["kernel"] * (1 - rate)))
    mlp = copy.copy(second["mlp"])
    mlp.kernel = mlp.kernel * (1 - rate)
    out["blocks"] = [first, dict(second, mlp=mlp)]
    return out
