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


COUNT_DTYPE = ("Counts are integers, and the task asks for int32 ones. An array created without a dtype "
               "(jnp.zeros(n), jnp.ones(n)) gets JAX's default float dtype, float32, and adding 1 to it "
               "keeps it float32, exact only up to 2**24: give the array you count into dtype=jnp.int32. "
               f"See {checks.DOCS}/default_dtypes.html")


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
        checks.assert_shape_dtype(out, (NUM_CLASSES,), np.int32, what=f"class_counts({labels.tolist()})",
                                  hint=COUNT_DTYPE)
    # Right counts must also come from one compiled program that does not grow with the labels.
    checks.assert_compiles(
        log, what="class_counts()", calls="3 calls with new labels of the same shape", expected=0,
        warm_up=first,
        why="the labels are reaching the program as compile-time constants (a static argument, "
            "a tuple, Python ints): keep them a traced array, so new labels are new data, not a "
            "new program")
    checks.assert_one_program(
        exercise.class_counts, [(labels,) for labels in batches[1:3]], what="class_counts",
        calls_text="2 calls with new labels of the same shape", expected=[bincount(b) for b in BATCHES[1:3]],
        rtol=0, atol=0, why="the labels reach the program as compile-time constants: keep them a traced array")
    checks.assert_jitted(exercise.class_counts, batches[0], what="class_counts", entirely=True)
    sizes = {n: checks.jaxpr_size(exercise.class_counts, jnp.zeros(n, dtype=jnp.int32)) for n in (4, 32)}
    checks.assert_not_unrolled(
        sizes, what="class_counts(labels)",
        hint="No loop is needed at all: one scatter over the whole labels array updates every "
             "label's slot at once, repeats included.")
    program = checks.program_of(exercise.class_counts, batches[0], what="class_counts")
    checks.assert_computes(program, bincount(BATCHES[0]), what=f"class_counts({BATCHES[0].tolist()})",
                           rtol=0, atol=0)
    # A lax loop does not grow either, but it updates one label per step: no update ever meets a
    # repeated index, which is what this exercise is about.
    if program.loops():
        kinds = sorted({eqn.primitive.name for eqn in program.loops()})
        checks.fail(f"class_counts runs a loop over the labels ({', '.join(kinds)} in its program): the "
                    f"counts come out right, but one label is handled per step, in sequence, so no "
                    f"update ever sees a repeated index. The point is a single update over the whole "
                    f"labels array in which every copy of a repeated index counts. "
                    f"See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html", "wrong-tool")
