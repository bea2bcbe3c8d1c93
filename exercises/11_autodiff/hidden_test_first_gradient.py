"""Hidden checks for grad-1 (first_gradient): points the visible checks do not show."""

import jax
import jax.numpy as jnp

from grader import checks


def test_value_and_gradient_at_unseen_points(exercise):
    # f(x) = 2x² + 3x + 3, f'(x) = 4x + 3
    for x, want in ((0.5, (5.0, 5.0)), (-2.25, (6.375, -6.0))):
        checks.assert_close(exercise.f_and_df(x), want, what=f"f_and_df({x})",
                            hint="Return the value and the gradient of f at x, the value first.")
    checks.assert_close(jax.jit(exercise.f_and_df)(jnp.float32(1.25)), (9.875, 8.0),
                        what="jax.jit(f_and_df)(1.25)")
