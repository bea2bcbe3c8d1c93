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
                              hint="Each vmap adds one axis, the outer one first: the xs must be the "
                                   "outer map, the ys the inner one.")


def test_every_pair_distance(exercise):
    xs, ys = _points(4, seed=1), _points(6, seed=2)
    out = jax.jit(exercise.pairwise_distances)(xs, ys)
    checks.assert_close(out, _by_hand(xs, ys), what="pairwise_distances(xs, ys)", rtol=1e-4, atol=1e-5,
                        hint="Entry [i, j] is distance(xs[i], ys[j]): the inner map holds one x "
                             "fixed and runs over the ys, the outer one runs over the xs with all "
                             "the ys fixed.")


def test_same_points_give_symmetric_matrix_with_zero_diagonal(exercise):
    xs = _points(5, seed=3)
    out = jax.jit(exercise.pairwise_distances)(xs, xs)
    checks.assert_close(out, _by_hand(xs, xs), what="pairwise_distances(xs, xs)", rtol=1e-4, atol=1e-5,
                        hint="Every x against every x: a symmetric matrix with zeros on the diagonal, "
                             "not one distance per pair of rows.")


def test_maps_distance_itself(exercise):
    # Another distance in distance's place: nested vmaps of distance follow it; broadcasting
    # the Euclidean formula by hand does not. Values first (3 x 6 points), then the swap on
    # shapes not traced yet (3 x 5).
    rng = np.random.default_rng(4)
    xs = rng.normal(size=(3, 4)).astype(np.float32)
    ys = rng.normal(size=(6, 4)).astype(np.float32)
    out = jax.jit(exercise.pairwise_distances)(xs, ys)
    checks.assert_shape_dtype(out, (3, 6), jnp.float32, what="pairwise_distances(xs, ys) with 3 xs and 6 ys",
                              hint="Each vmap adds one axis, the outer one first: the xs must be the "
                                   "outer map, the ys the inner one.")
    checks.assert_close(out, _by_hand(xs, ys), what="pairwise_distances(xs, ys) with 3 xs and 6 ys",
                        rtol=1e-4, atol=1e-5)
    ys = rng.normal(size=(5, 4)).astype(np.float32)

    def chebyshev(x, y):
        return jnp.max(jnp.abs(x - y))

    with checks.swap_function(exercise, "distance", chebyshev):
        outs = checks.both_ways(exercise.pairwise_distances, xs, ys)  # traced and on arrays: it follows both
    want = np.abs(xs[:, None, :] - ys[None, :, :]).max(axis=-1)
    # Exactly, to float32's rounding: the largest |x - y| is one subtraction away from the points, so
    # any pairing gives it to the last bit; a pairing that rebuilds the points from other arrays (sums
    # and differences of pairs, rescaled) drifts, and so does what it hands distance.
    for how, out in outs.items():
        checks.assert_follows(out, want, what=f"pairwise_distances(xs, ys) {how}", swapped="distance",
                              rtol=5e-7, atol=1e-7,
                              hint="The task is to build every pair by nesting jax.vmap around "
                                   "distance, not to broadcast the formula by hand.",
                              shape_hint="Each vmap adds one axis, the outer one first: the xs must be "
                                         "the outer map, the ys the inner one.")


def test_program_does_not_grow_with_number_of_points(exercise):
    programs = checks.assert_not_unrolled_over_batch(
        exercise.pairwise_distances,
        lambda n: (_points(n, seed=n), _points(n + 1, seed=0)), (2, 7),
        what="pairwise_distances", hint="Let two nested jax.vmap calls do the pairing.",
        expected=_by_hand, rtol=1e-4, atol=1e-5)
    what = "pairwise_distances(xs, ys)"
    program = programs[7]  # 7 xs by 8 ys, run and compared above: the program that computes the distances
    checks.assert_not_uses(
        program, {"scan", "while"}, what=what,
        why="A loop primitive (lax.map, scan, fori_loop) visits the points one after another; "
            "nested jax.vmap calls compute every pair at once.")
    # Nested vmaps hand each point to every pairing as it is; one vmap over every pair materialised
    # first (jnp.repeat, jnp.tile) builds a copy of the points per partner.
    xs, ys = _points(7, seed=7), _points(8, seed=0)
    checks.assert_no_stacked_copies(exercise.pairwise_distances, xs, ys, copies=7, what=what,
                                    shared={"[0]": "the points xs", "[1]": "the points ys"},
                                    hint="Nest two jax.vmap calls: the inner one maps ys with xs's point "
                                         "held (in_axes None), the outer one maps xs.")
