"""Wrong: right values, but it walks the containers and overwrites the kernels in place, changing the caller's params."""

import dataclasses

import jax


def leaf_paths(params):
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]


def _walk(node, rate):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "kernel":
                node[key] = jax.tree.map(lambda leaf: leaf * (1 - rate), value)
            else:
                _walk(value, rate)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _walk(value, rate)
    elif dataclasses.is_dataclass(node):
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            if field.name == "kernel":
                setattr(node, field.name, jax.tree.map(lambda leaf: leaf * (1 - rate), value))
            else:
                _walk(value, rate)


def decay_kernels(params, rate):
    _walk(params, rate)
    return params
