"""Checks for vmap-2 (axis_mismatch)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

HINT = ("c holds one example per column, so its batch runs along its second axis; b is shared by "
        "every example; a has one example per row.")


def _inputs(batch, n):
    # Distinct values everywhere, so pairing an example with the wrong slice shows.
    a = np.arange(batch * n, dtype=np.float32).reshape(batch, n)
    b = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    c = 10.0 * np.arange(n * batch, dtype=np.float32).reshape(n, batch)
    return a, b, c


def _what_went_wrong(a, b, c, out):
    """The mistake these numbers reveal, in words (square data, where shapes cannot tell)."""
    out = np.asarray(out)
    known = [
        (a + b + c, "Example i was paired with row i of c: c is mapped along its rows (axis 0), "
                    "but c keeps its examples in columns."),
        (a + b[:, None] + c.T, "Example i added the single number b[i], not the whole of b: b is "
                               "mapped as if it had a batch axis, but it is shared."),
        ((a + b + c.T).T, "Every example is paired with the right data, but the examples come out "
                          "along axis 1 (as columns); the caller wants one example per row."),
    ]
    for numbers, words in known:
        if out.shape == numbers.shape and np.allclose(out, numbers):
            return words
    return HINT


def test_square_batch_pairs_each_row_with_a_column_of_c(exercise):
    a, b, c = _inputs(batch=3, n=3)
    out = jax.jit(exercise.add_batched)(a, b, c)
    checks.assert_close(out, a + b + c.T, what="add_batched(a, b, c) with 3 examples of length 3",
                        hint="No error, but wrong numbers: with square data a wrong axis still gives "
                             "slices of the right shape. " + _what_went_wrong(a, b, c, out))


def test_rectangular_batch_gives_batch_by_n(exercise):
    a, b, c = _inputs(batch=5, n=2)
    try:
        out = jax.jit(exercise.add_batched)(a, b, c)
    except ValueError as error:
        text = str(error)
        if "inconsistent sizes" not in text:
            raise
        which = ("b, which is shared and has no batch axis, is mapped" if "argument b " in text else
                 "c is mapped along an axis that is not its batch axis" if "argument c " in text else
                 "an argument is mapped along the wrong axis")
        checks.fail(f"vmap found mapped axes of different lengths ({text.splitlines()[0].rstrip(':')}): with 5 "
                    f"examples of length 2, {which}, so a length-2 axis meets the batch of 5. {HINT}",
                    "wrong-shape")
    checks.assert_shape_dtype(out, (5, 2), jnp.float32, what="add_batched(a, b, c) with 5 examples of length 2",
                              hint="The examples must come out along axis 0, one per row.")
    checks.assert_close(out, a + b + c.T, what="add_batched(a, b, c) with 5 examples of length 2", hint=HINT)
    # The batch stays one vectorized program: a loop over the examples gives the same numbers.
    # Each program read is run and must give the batch's sums, so what is read is what computes them.
    checks.assert_not_unrolled_over_batch(exercise.add_batched, lambda batch: _inputs(batch, 2), (2, 9),
                                          what="add_batched", expected=lambda a, b, c: a + b + c.T)
