"""Checks for vmap-3 (batch_on_columns)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

CLASSES = 3


def _logits(batch, seed=0, classes=CLASSES):
    return np.random.default_rng(seed).normal(size=(classes, batch)).astype(np.float32) * 3.0


def _softmax(logits, axis):
    e = np.exp(logits - logits.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _by_hand(logits):
    return _softmax(logits, axis=0)  # each column is one example


GENERIC = ("Each column of logits is one example: map softmax over the columns and stack the "
           "results back as columns.")


def _known_mistake(out, columns, rows):
    """The axis mistake `out` reveals, in words, or None. `columns`/`rows`: the per-example function
    applied down each column (right) and along each row (wrong)."""
    out = np.asarray(out)
    known = [
        (columns.T, "Each column was handled, as it should be, but the results are stacked along "
                    "axis 0, one example per row: vmap stacks along axis 0 unless out_axes says "
                    "otherwise, and the caller wants the examples back in columns."),
        (rows, "Each row was handled (one class across the batch), not each column: the examples "
               "are the columns, so the map must run along the inputs' axis 1."),
        (rows.T, "The results do come out as columns, but each one was computed from a row (one "
                 "class across the batch): the map must run along the inputs' axis 1, the columns."),
    ]
    for numbers, words in known:
        if out.shape == numbers.shape and np.allclose(out, numbers, rtol=1e-4, atol=1e-5):
            return words
    return None


def _what_went_wrong(logits, out):
    return _known_mistake(out, _softmax(logits, axis=0), _softmax(logits, axis=1)) or GENERIC


def test_keeps_classes_by_batch_shape(exercise):
    logits = _logits(batch=5)
    out = jax.jit(exercise.softmax_columns)(logits)
    checks.assert_shape_dtype(out, (CLASSES, 5), jnp.float32, what="softmax_columns(logits of shape (3, 5))",
                              hint=_what_went_wrong(logits, out))


def test_each_column_is_a_softmax(exercise):
    for batch in (CLASSES, 7):  # square data too: a wrong axis would not show in the shape there
        logits = _logits(batch, seed=batch)
        out = jax.jit(exercise.softmax_columns)(logits)
        checks.assert_close(out, _by_hand(logits), what=f"softmax_columns(logits of shape {logits.shape})",
                            hint=_what_went_wrong(logits, out))


def test_maps_softmax_itself(exercise):
    # Another per-example function in softmax's place: an answer that maps softmax follows it;
    # a library softmax along an axis does not. Values first (batch 5), then the swap on
    # shapes not traced yet (batch 6).
    logits = _logits(batch=5, seed=5, classes=4)
    out = jax.jit(exercise.softmax_columns)(logits)
    checks.assert_close(out, _by_hand(logits), what="softmax_columns(logits of shape (4, 5))",
                        rtol=1e-5, atol=1e-6, hint=_what_went_wrong(logits, out))
    logits = _logits(batch=6, seed=6, classes=4)

    def another(v):
        return jnp.tanh(v) - jnp.max(v)

    with checks.swap_function(exercise, "softmax", another):
        outs = checks.both_ways(exercise.softmax_columns, logits)  # traced and on arrays: it follows both
    want = np.tanh(logits) - logits.max(axis=0)
    for how, out in outs.items():
        mistake = _known_mistake(out, want, np.tanh(logits) - logits.max(axis=1, keepdims=True))
        if mistake:  # it maps softmax, along the wrong axis: say that, not "it does not map softmax"
            checks.assert_close(out, want, what=f"softmax_columns(logits) {how} with softmax swapped for "
                                                "another per-example function", rtol=1e-5, atol=1e-5, hint=mistake)
        checks.assert_follows(out, want, what=f"softmax_columns(logits) {how}",
                              swapped="softmax", rtol=1e-5, atol=1e-5,
                              hint="The task is to map the one-example softmax with jax.vmap, not to "
                                   "normalize along an axis another way.")


def test_program_does_not_grow_with_batch(exercise):
    programs = checks.assert_not_unrolled_over_batch(
        exercise.softmax_columns, lambda batch: (_logits(batch),), (2, 9),
        what="softmax_columns", hint="Let jax.vmap map softmax over the columns.", expected=_by_hand)
    program = programs[9]  # run and compared with the softmaxes above: the program that computes them
    checks.assert_not_uses(
        program, {"scan", "while"}, what="softmax_columns(logits)",
        why="A loop primitive (lax.map, scan, fori_loop) runs softmax one column after another; "
            "jax.vmap rewrites it to work on every column at once.")
