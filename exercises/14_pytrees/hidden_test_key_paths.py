"""Hidden checks for pytree-2 (key_paths): another tree, another rate."""

import dataclasses

import jax
import numpy as np

from grader import checks


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Cell:
    kernel: object
    recurrent: object
    gate: dict
    kernel_init: object  # an attribute whose name only starts with "kernel"


def _tree(factor):
    rng = np.random.default_rng(41)
    k = lambda *shape: (rng.uniform(0.5, 1.5, size=shape) * factor).astype(np.float32)
    o = lambda *shape: rng.uniform(0.5, 1.5, size=shape).astype(np.float32)
    return (
        Cell(kernel=k(2, 3), recurrent=o(3, 3), gate={"kernel": k(3,), "bias": o(3)}, kernel_init=o(3)),
        [{"kernel": k(3, 3)}, {"w": o(3, 3)}],
        {"kernel_init": o(2), "out": {"layer": {"kernel": k(3, 1)}}},
    )


def test_another_tree(exercise):
    params, want = _tree(1.0), _tree(0.7)
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(params)[0]]
    got = exercise.leaf_paths(params)
    if not isinstance(got, (list, tuple)) or list(got) != paths:
        checks.fail(f"leaf_paths of another tree returned {got!r}; expected {paths!r}.")
    checks.assert_close(exercise.decay_kernels(params, 0.3), want, rtol=1e-6,
                        what="decay_kernels(another tree, 0.3)",
                        hint="Read each leaf's own path, key by key: the tree may have any shape, and a name that "
                             "only starts with 'kernel' is another name.")
