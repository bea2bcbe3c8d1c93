"""Checks for pytree-2 (key_paths)."""

import dataclasses

import chex
import jax
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/pytrees.html"


@chex.dataclass
class Proj:
    """A chex.dataclass: registered by chex, its fields flattened in name order (bias, then kernel),
    each keyed by its attribute name as register_dataclass's are."""

    kernel: object
    bias: object


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Norm:
    scale: object
    offset: object


def _params(kernel, other):
    """The visible parameter tree; `kernel(shape)` makes the kernels, `other(shape, dtype)` the rest."""
    return {
        "dense": {"kernel": kernel((3, 4)), "bias": other((4,))},
        "blocks": [
            {"attn": {"kernel": kernel((4, 4)), "kernel_scale": other((4,))},
             "norm": Norm(scale=other((4,)), offset=other((4,)))},
            {"mlp": Proj(kernel=kernel((4, 2)), bias=other((2,))), "kernels": other((2, 2))},
        ],
        "conv": {"kernel": kernel((3,))},
        # "kernel" higher up the path: every leaf below it is a kernel's part.
        "experts": {"kernel": [kernel((2, 2)), kernel((2,))]},
        "embedding": other((5, 3)),
        # Keys whose text holds "kernel" without being it: only a key compared whole tells them apart.
        "enc.kernel": other((2,)), "['kernel']": other((2,)), "kernel/0": other((2,)),
        "step": other((), np.int32),
    }


def _tree(rate=None):
    """The tree with distinct values per leaf; with `rate`, the expected decayed tree."""
    rng = np.random.default_rng(14)
    factor = 1.0 if rate is None else 1.0 - rate

    def kernel(shape):
        return (rng.uniform(0.5, 1.5, size=shape) * factor).astype(np.float32)

    def other(shape, dtype=np.float32):
        return rng.uniform(0.5, 1.5, size=shape).astype(np.float32) if dtype == np.float32 else np.array(7, dtype)

    return _params(kernel, other)


def test_leaf_paths_in_leaf_order(exercise):
    params = _tree()
    want = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(params)[0]]
    got = exercise.leaf_paths(params)
    if not isinstance(got, (list, tuple)) or list(got) != want:
        checks.fail(f"leaf_paths(params) returned {got!r}; expected {want!r}: one string per leaf, in the "
                    f"order jax.tree.leaves lists them (dict keys sorted), each rendered by "
                    f"jax.tree_util.keystr from the leaf's full key path. {DOCS}")


def test_decay_only_leaves_keyed_kernel(exercise):
    rate = 0.1
    params, want = _tree(), _tree(rate)
    got = exercise.decay_kernels(params, rate)
    checks.assert_close(got, want, rtol=1e-6, what="decay_kernels(params, 0.1)",
                        hint="Decide by the keys on each leaf's path: a key named exactly 'kernel' (a dict "
                             "key or an attribute of a registered class) anywhere on it, not only the last "
                             "one. 'kernel_scale', 'kernels' and 'enc.kernel' are other names (compare each key "
                             "whole, not the path's text), and a leaf's shape says nothing about its role.")
    for (path, leaf), original in zip(jax.tree_util.tree_flatten_with_path(got)[0], jax.tree.leaves(params)):
        if np.asarray(leaf).dtype != np.asarray(original).dtype:
            checks.fail(f"decay_kernels(params, 0.1){jax.tree_util.keystr(path)} came back as "
                        f"{np.asarray(leaf).dtype}; it went in as {np.asarray(original).dtype}. A leaf "
                        f"that is not decayed is returned as it is.", "wrong-shape")


def test_decay_is_pure_and_traceable(exercise):
    params, want = _tree(), _tree(0.25)
    checks.assert_not_mutated(exercise.decay_kernels, params, 0.25, what="decay_kernels(params, 0.25)")
    try:
        got = jax.jit(exercise.decay_kernels)(params, 0.25)
    except jax.errors.TracerArrayConversionError:
        checks.fail("jax.jit(decay_kernels) handed a traced leaf to NumPy: under jit every leaf (and the "
                    "rate) is a tracer, so the decay must be written with JAX operations, leaf by leaf "
                    f"through the tree. {DOCS}", "numpy-on-tracer")
    checks.assert_close(got, want, rtol=1e-6, what="jax.jit(decay_kernels)(params, 0.25)")
    program = checks.program_of(exercise.decay_kernels, params, 0.1, what="decay_kernels(params, 0.1)")
    checks.assert_computes(program, _tree(0.1), rtol=1e-6, what="decay_kernels(params, 0.1)")
