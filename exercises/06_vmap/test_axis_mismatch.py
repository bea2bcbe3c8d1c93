"""Checks for vmap-2 (axis_mismatch)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

HINT = ("c holds one example per column: its batch runs along axis 1, so its in_axes entry "
        "is 1. b is shared (None), a has its examples in rows (0).")


def _inputs(batch, n):
    # Distinct values everywhere, so pairing an example with the wrong slice shows.
    a = np.arange(batch * n, dtype=np.float32).reshape(batch, n)
    b = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    c = 10.0 * np.arange(n * batch, dtype=np.float32).reshape(n, batch)
    return a, b, c


def test_square_batch_pairs_each_row_with_a_column_of_c(exercise):
    a, b, c = _inputs(batch=3, n=3)
    out = jax.jit(exercise.add_batched)(a, b, c)
    checks.assert_close(out, a + b + c.T, what="add_batched(a, b, c) with 3 examples of length 3",
                        hint="No error, but wrong numbers: with square data a wrong in_axes still gives "
                             "slices of the right shape. " + HINT)


def test_rectangular_batch_gives_batch_by_n(exercise):
    a, b, c = _inputs(batch=5, n=2)
    try:
        out = jax.jit(exercise.add_batched)(a, b, c)
    except ValueError as error:
        if "inconsistent sizes" not in str(error):
            raise
        checks.fail(f"vmap found mapped axes of different lengths ({str(error).splitlines()[0]}): "
                    f"with 5 examples of length 2, a wrong in_axes entry maps a length-2 axis "
                    f"against the batch of 5. {HINT}")
    checks.assert_shape_dtype(out, (5, 2), jnp.float32, what="add_batched(a, b, c) with 5 examples of length 2",
                              hint="The batch comes out on axis 0 (out_axes=0, the default).")
    checks.assert_close(out, a + b + c.T, what="add_batched(a, b, c) with 5 examples of length 2", hint=HINT)
