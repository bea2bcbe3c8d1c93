"""Checks for vmap-3 (batch_on_columns)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

CLASSES = 3


def _logits(batch, seed=0):
    return np.random.default_rng(seed).normal(size=(CLASSES, batch)).astype(np.float32) * 3.0


def _by_hand(logits):
    e = np.exp(logits - logits.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def test_keeps_classes_by_batch_shape(exercise):
    logits = _logits(batch=5)
    out = jax.jit(exercise.softmax_columns)(logits)
    checks.assert_shape_dtype(out, (CLASSES, 5), jnp.float32, what="softmax_columns(logits of shape (3, 5))",
                              hint="vmap stacks results along out_axes (0 by default): out_axes=1 puts "
                                   "the batch back on the columns.")


def test_each_column_is_a_softmax(exercise):
    for batch in (CLASSES, 7):  # square data too: a wrong axis would not show in the shape there
        logits = _logits(batch, seed=batch)
        out = jax.jit(exercise.softmax_columns)(logits)
        checks.assert_close(out, _by_hand(logits), what=f"softmax_columns(logits of shape {logits.shape})",
                            hint="Each column is one example: map over axis 1 (in_axes=1), not the rows.")


def test_program_does_not_grow_with_batch(exercise):
    checks.assert_not_unrolled_over_batch(
        exercise.softmax_columns, lambda batch: (_logits(batch),), (2, 9),
        what="softmax_columns", hint="jax.vmap(softmax, in_axes=1, out_axes=1).")
