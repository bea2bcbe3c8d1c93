"""Checks for vmap-1 (batch_predict)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D = 4


def _inputs(batch, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=D).astype(np.float32)
    b = np.float32(0.3)
    xs = rng.normal(size=(batch, D)).astype(np.float32)
    return w, b, xs


def _by_hand(w, b, xs):
    return 1.0 / (1.0 + np.exp(-(xs @ w + b)))


def test_matches_hand_batched_model(exercise):
    w, b, xs = _inputs(batch=6)
    out = jax.jit(exercise.predict_batch)(w, b, xs)
    checks.assert_shape_dtype(out, (6,), jnp.float32, what="predict_batch(w, b, xs) with 6 examples",
                              hint="One probability per row of xs: only xs is mapped (in_axes=(None, None, 0)).")
    checks.assert_close(out, _by_hand(w, b, xs), what="predict_batch(w, b, xs)",
                        hint="Each row of xs is one example; w and b are shared by every example.")


def test_batch_of_one_and_batch_larger_than_features(exercise):
    for batch in (1, 11):
        w, b, xs = _inputs(batch, seed=batch)
        out = jax.jit(exercise.predict_batch)(w, b, xs)
        checks.assert_close(out, _by_hand(w, b, xs), what=f"predict_batch(w, b, xs) with {batch} example(s)",
                            hint="w has its own length (features), independent of the batch: do not map it.")


def test_program_does_not_grow_with_batch(exercise):
    checks.assert_not_unrolled_over_batch(exercise.predict_batch, _inputs, (2, 9), what="predict_batch",
                                          hint="jax.vmap(predict_single, in_axes=(None, None, 0)).")
