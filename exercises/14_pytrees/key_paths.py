"""Key paths: find a leaf by where it sits in the tree, not by its shape.

Every leaf of a pytree has a *key path*, one key per level from the root:
`DictKey(key=...)` in a dict, `SequenceKey(idx=...)` in a list or tuple,
`GetAttrKey(name=...)` for an attribute of a registered class.
`jax.tree_util.tree_flatten_with_path(tree)` (or `jax.tree.leaves_with_path`)
lists `(path, leaf)` pairs in the order of `jax.tree.leaves`;
`jax.tree_util.tree_map_with_path(f, tree)` calls `f(path, leaf)` for every
leaf and rebuilds the tree; `jax.tree_util.keystr(path)` renders a path as
text, e.g. "['dense']['kernel']" (with `simple=True, separator="/"`:
"dense/kernel"). Optimizers select leaves this way: weight decay on the
kernels, never on biases, norms or counters.
Docs: https://docs.jax.dev/en/latest/pytrees.html
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.keystr.html

Task (fill-in): write both functions for any pytree of arrays (nested dicts,
lists, tuples, registered classes). Keep the names and signatures.
"""

import jax


def leaf_paths(params) -> list[str]:
    """jax.tree_util.keystr of each leaf's key path, in jax.tree.leaves order."""
    raise NotImplementedError("TODO: flatten params with their key paths and render each path with keystr")


def decay_kernels(params, rate):
    """A new pytree like `params`: each leaf with a key named exactly "kernel" on its path (a dict key or
    an attribute name) is multiplied by (1 - rate); every other leaf is returned as it is. Works under jit."""
    raise NotImplementedError("TODO: map over the leaves with their paths, decaying only the kernels")
