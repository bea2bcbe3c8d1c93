"""Hidden checks for purity-4 (loop_iterator): inputs the visible checks do not show."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def test_sums_squares_of_unseen_values(exercise):
    values = np.random.default_rng(7).normal(size=13).astype(np.float32)
    expected = float(np.sum(values ** 2))
    checks.assert_close(jax.jit(exercise.sum_of_squares)(jnp.asarray(values)), expected,
                        what="sum_of_squares(values) on new data", rtol=1e-4)
