"""Hidden checks for static-2 (loop_count): another x, of another shape, and other step counts."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([[16.0, 0.25, 3.0], [100.0, 1.0, 7.0]], dtype=np.float32)


def test_steps_unseen_inputs(exercise):
    x = jnp.asarray(X)
    for n in (2, 4):
        y = X.astype(np.float64)
        for _ in range(n):
            y = 0.5 * (y + X / y)
        # Still short of sqrt(100) = 10 after these steps: only n real steps give these values.
        checks.assert_close(exercise.newton_sqrt(x, n), y, what=f"newton_sqrt(x of shape (2, 3), {n})",
                            hint="Start from y = x and apply newton_step exactly n times, for any x.")
