"""Checks for at-2 (duplicate_indices)."""

import jax
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


def test_counts_repeated_labels_in_one_compiled_program(exercise):
    batches = [jax.numpy.asarray(b) for b in BATCHES]
    outs = [exercise.class_counts(batches[0]).block_until_ready()]  # the one compile
    with checks.count_compiles() as log:
        outs += [exercise.class_counts(labels).block_until_ready() for labels in batches[1:]]
    for labels, out in zip(BATCHES, outs):
        checks.assert_close(
            out, bincount(labels), what=f"class_counts({labels.tolist()})",
            hint="Repeated labels must each add 1. `.at[labels].set(...)` (or reading counts[labels] "
                 "and writing it back + 1) lets all copies of a label write the same value, so they "
                 "count once; a scatter-add, `.at[labels].add(1)`, accumulates every copy.")
    # Right counts must also come from one compiled program that does not grow with the labels.
    checks.assert_compiles(
        log, what="class_counts()", calls="3 calls with new labels of the same shape", expected=0,
        why="the labels are reaching the program as compile-time constants (a static argument, "
            "a tuple, Python ints): keep them a traced array, so new labels are new data, not a "
            "new program")
    checks.assert_jitted(exercise.class_counts, batches[0], what="class_counts")
    sizes = {n: checks.jaxpr_size(exercise.class_counts, jax.numpy.zeros(n, dtype=jax.numpy.int32))
             for n in (4, 32)}
    checks.assert_not_unrolled(
        sizes, what="class_counts(labels)",
        hint="Here no loop is needed at all: one scatter-add, counts.at[labels].add(1), updates "
             "every label's slot at once.")
