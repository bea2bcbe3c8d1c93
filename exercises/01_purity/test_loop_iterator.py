"""Checks for purity-4 (loop_iterator)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

VALUES = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], np.float32)


def test_sums_every_square_in_one_loop(exercise):
    values = jnp.asarray(VALUES)
    expected = float(np.sum(VALUES ** 2))
    first_only = float(len(VALUES) * VALUES[0] ** 2)
    got = checks.call_on_device(exercise.sum_of_squares, values, what="sum_of_squares(values)",
                                why="The loop is JAX's (lax.fori_loop, lax.scan): a Python loop over NumPy copies "
                                    "runs on the host, and under jax.jit it has no values to iterate.")
    hint = ("The answer is len(values) times the first square: the body read the same element on every "
            "iteration. The loop body is traced once, so Python state it advances (an iterator, a "
            "counter) is read once; each iteration's element must come from what JAX passes the body."
            if np.allclose(np.asarray(got), first_only) else "")
    checks.assert_close(got, expected, what="sum_of_squares(values)", hint=hint)
    checks.assert_close(jax.jit(exercise.sum_of_squares)(values), expected,
                        what="jax.jit(sum_of_squares)(values)", hint=hint)
    checks.assert_close(exercise.sum_of_squares(jnp.arange(10.0)), 285.0,
                        what="sum_of_squares(jnp.arange(10.0))", hint=hint)
    # Right sums must still come from one loop, not one traced step per element...
    sizes = {n: checks.jaxpr_size(exercise.sum_of_squares, jnp.ones(n)) for n in (8, 64)}
    checks.assert_not_unrolled(sizes, what="sum_of_squares")
    # ... that stays a loop in the compiled program (unroll= copies the body) and is done by JAX.
    values = np.random.default_rng(4).normal(size=64).astype(np.float32)
    program = checks.program_of(exercise.sum_of_squares, jnp.asarray(values), what="sum_of_squares")
    checks.assert_computes(program, np.sum(values.astype(np.float64) ** 2),
                           what="sum_of_squares(values of length 64)", rtol=1e-5)
    checks.assert_loops_rolled(program, what="sum_of_squares(values of length 64)",
                               hint="One loop means one copy of the body, whatever the length.")
    # Called on arrays, the function must run that loop too, not Python's over the elements op by op.
    checks.assert_called_as_traced(exercise.sum_of_squares, jnp.asarray(values), what="sum_of_squares(values)",
                                   program=program, nothing_else=True)
