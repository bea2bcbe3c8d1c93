"""Hidden checks for purity-1 (global_config): other logits and temperatures."""

import jax.numpy as jnp
import numpy as np

from grader import checks


def test_scales_unseen_logits(exercise):
    logits = np.linspace(-3, 3, 7, dtype=np.float32)
    for t in (0.3, 7.0):
        exercise.set_temperature(t)
        checks.assert_close(exercise.scaled_logits(jnp.asarray(logits)), logits / t,
                            what=f"scaled_logits(logits) at temperature {t}")
