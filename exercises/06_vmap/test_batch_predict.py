"""Checks for vmap-1 (batch_predict)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D = 4
SHARED = "w and b are the same for every example: only xs carries the batch, one example per row."


def _inputs(batch, seed=0, d=D):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d).astype(np.float32)
    b = np.float32(0.3)
    xs = rng.normal(size=(batch, d)).astype(np.float32)
    return w, b, xs


def _by_hand(w, b, xs):
    return 1.0 / (1.0 + np.exp(-(xs @ w + b)))


def test_matches_hand_batched_model(exercise):
    w, b, xs = _inputs(batch=6)
    out = jax.jit(exercise.predict_batch)(w, b, xs)
    checks.assert_shape_dtype(out, (6,), jnp.float32, what="predict_batch(w, b, xs) with 6 examples",
                              hint="One probability per row of xs. " + SHARED)
    checks.assert_close(out, _by_hand(w, b, xs), what="predict_batch(w, b, xs)", hint=SHARED)


def test_batch_of_one_and_batch_larger_than_features(exercise):
    for batch in (1, 11):
        w, b, xs = _inputs(batch, seed=batch)
        out = jax.jit(exercise.predict_batch)(w, b, xs)
        checks.assert_close(out, _by_hand(w, b, xs), what=f"predict_batch(w, b, xs) with {batch} example(s)",
                            hint="w has its own length (features), independent of the batch: do not map it.")


def test_maps_predict_single_itself(exercise):
    # Another model in predict_single's place: an answer that maps predict_single gives its
    # numbers; one that re-derives the logistic model by hand does not, nor one that calls
    # predict_single once on the whole batch (the max below is one example's under vmap, the
    # whole batch's in such a call). Values first (batch 8), so a wrong answer hears about its
    # values; then the swap on shapes not traced yet (batch 7).
    w, b, xs = _inputs(batch=8, seed=8, d=5)
    checks.assert_close(jax.jit(exercise.predict_batch)(w, b, xs), _by_hand(w, b, xs),
                        what="predict_batch(w, b, xs) with 8 examples of 5 features", hint=SHARED)
    w, b, xs = _inputs(batch=7, seed=7, d=5)

    def another_model(w, b, x):
        return jnp.tanh(jnp.dot(w, x)) * b + jnp.max(x)

    with checks.swap_function(exercise, "predict_single", another_model):
        outs = checks.both_ways(exercise.predict_batch, w, b, xs)  # traced and on arrays: it follows both
    whole_batch = np.tanh(xs @ w) * b + xs.max()
    for how, out in outs.items():
        if np.shape(out) == whole_batch.shape and np.allclose(out, whole_batch, rtol=1e-5, atol=1e-6):
            checks.fail("predict_batch(w, b, xs) calls predict_single once with the whole batch as x: "
                        "with predict_single swapped for a model that takes the max of its x, every "
                        "example got the max over all examples. jnp.dot happens to broadcast, but a "
                        "one-example function need not: map it with jax.vmap, which hands it one "
                        "example of shape (d,) at a time.", "wrong-tool")
        checks.assert_follows(out, np.tanh(xs @ w) * b + xs.max(axis=1), what=f"predict_batch(w, b, xs) {how}",
                              swapped="predict_single", rtol=1e-5, atol=1e-6,
                              hint="The task is to batch the one-example function with jax.vmap, "
                                   "not to write the batched formula again.")


def test_program_does_not_grow_with_batch(exercise):
    programs = checks.assert_not_unrolled_over_batch(
        exercise.predict_batch, _inputs, (2, 9), what="predict_batch", expected=_by_hand,
        hint="Let jax.vmap add the batch axis to predict_single.")
    program = programs[9]  # run and compared with the probabilities above: the program that computes them
    checks.assert_not_uses(
        program, {"scan", "while"}, what="predict_batch(w, b, xs)",
        why="A loop primitive (lax.map, scan, fori_loop) runs predict_single one example after "
            "another; jax.vmap rewrites it to work on the whole batch at once.")
