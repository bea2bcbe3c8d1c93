"""Checks for at-2 (duplicate_indices)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

NUM_CLASSES = 6
RNG = np.random.default_rng(2)
# Every batch repeats labels; class 4 never occurs in the first one.
BATCHES = [
    np.array([2, 2, 2, 5, 0, 2, 5, 1, 3, 0, 2, 1]),
    RNG.integers(0, NUM_CLASSES, size=12),
    RNG.integers(0, NUM_CLASSES, size=12),
    np.zeros(12, dtype=int),
]


def bincount(labels):
    return np.bincount(labels, minlength=NUM_CLASSES)


def _what_went_wrong(out, labels):
    got, want = np.asarray(out), bincount(labels)
    if got.shape == want.shape and np.array_equal(got, (want > 0).astype(got.dtype)):
        return ("Every class that occurs was counted once, however often it repeats: with a repeated "
                "index `.set` keeps only one of the writes (and reading counts[labels] first hands every "
                "copy the same old count). Repeated labels need an update that accumulates every copy: "
                "look at the other .at[...] methods.")
    return "Each occurrence of a label adds 1 to its class, repeats included."


def test_counts_repeated_labels_in_one_compiled_program(exercise):
    batches = [jnp.asarray(b) for b in BATCHES]
    with checks.count_compiles() as first:
        outs = [exercise.class_counts(batches[0]).block_until_ready()]  # the one compile
    with checks.count_compiles() as log:
        outs += [exercise.class_counts(labels).block_until_ready() for labels in batches[1:]]
    for labels, out in zip(BATCHES, outs):
        checks.assert_close(out, bincount(labels), what=f"class_counts({labels.tolist()})",
                            hint=_what_went_wrong(out, labels))
    # Right counts must also come from one compiled program that does not grow with the labels.
    checks.assert_compiles(
        log, what="class_counts()", calls="3 calls with new labels of the same shape", expected=0,
        warm_up=first,
        why="the labels are reaching the program as compile-time constants (a static argument, "
            "a tuple, Python ints): keep them a traced array, so new labels are new data, not a "
            "new program")
    checks.assert_jitted(exercise.class_counts, batches[0], what="class_counts")
    sizes = {n: checks.jaxpr_size(exercise.class_counts, jnp.zeros(n, dtype=jnp.int32)) for n in (4, 32)}
    checks.assert_not_unrolled(
        sizes, what="class_counts(labels)",
        hint="No loop is needed at all: one scatter over the whole labels array updates every "
             "label's slot at once, repeats included.")
    checks.assert_no_callbacks(checks.program_of(exercise.class_counts, batches[0], what="class_counts"),
                               what="class_counts")
