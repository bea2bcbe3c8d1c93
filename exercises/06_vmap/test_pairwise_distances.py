"""Checks for vmap-4 (pairwise_distances)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D = 3


def _points(n, seed):
    return np.random.default_rng(seed).normal(size=(n, D)).astype(np.float32)


def _by_hand(xs, ys):
    return np.sqrt(((xs[:, None, :] - ys[None, :, :]) ** 2).sum(axis=-1))


def test_shape_is_xs_by_ys(exercise):
    xs, ys = _points(4, seed=1), _points(6, seed=2)
    out = jax.jit(exercise.pairwise_distances)(xs, ys)
    checks.assert_shape_dtype(out, (4, 6), jnp.float32, what="pairwise_distances(xs, ys) with 4 xs and 6 ys",
                              hint="The outer vmap's axis comes first: map over xs on the outside, ys inside.")


def test_every_pair_distance(exercise):
    xs, ys = _points(4, seed=1), _points(6, seed=2)
    out = jax.jit(exercise.pairwise_distances)(xs, ys)
    checks.assert_close(out, _by_hand(xs, ys), what="pairwise_distances(xs, ys)", rtol=1e-4, atol=1e-5,
                        hint="Entry [i, j] is distance(xs[i], ys[j]): inner vmap in_axes=(None, 0), "
                             "outer in_axes=(0, None).")


def test_same_points_give_symmetric_matrix_with_zero_diagonal(exercise):
    xs = _points(5, seed=3)
    out = jax.jit(exercise.pairwise_distances)(xs, xs)
    checks.assert_close(out, _by_hand(xs, xs), what="pairwise_distances(xs, xs)", rtol=1e-4, atol=1e-5,
                        hint="Every x against every x: a symmetric matrix with zeros on the diagonal, "
                             "not one distance per pair of rows.")


def test_program_does_not_grow_with_number_of_points(exercise):
    checks.assert_not_unrolled_over_batch(
        exercise.pairwise_distances,
        lambda n: (_points(n, seed=n), _points(n + 1, seed=0)), (2, 7),
        what="pairwise_distances", hint="Nest two jax.vmap calls around distance.")
