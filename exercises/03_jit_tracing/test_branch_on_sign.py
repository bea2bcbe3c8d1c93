"""Checks for jit-5 (branch_on_sign)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

TAU = 0.9
RESIDUALS = [2.0, -2.0, 0.5, -0.25, 0.0, 3.0, -1.5]


def _expected(r):
    return TAU * r if r > 0 else (TAU - 1) * r


def test_loss_on_both_signs(exercise):
    for r in RESIDUALS:
        checks.assert_close(exercise.pinball_loss(jnp.float32(r)), np.float32(_expected(r)),
                            what=f"pinball_loss({r})",
                            hint="Positive residuals are weighted by TAU, the rest by TAU - 1.")


def test_compiles_once_across_signs(exercise):
    values = [jnp.float32(r) for r in RESIDUALS]
    with checks.count_compiles() as log:
        outs = [exercise.pinball_loss(v) for v in values]
    if log.count == 0:
        checks.assert_jitted(exercise.pinball_loss, values[0], what="pinball_loss")
    checks.assert_compiles(
        log, what="pinball_loss()", calls=f"{len(values)} float32 scalars of both signs", expected=1,
        why="the sign is data: one program should handle both branches. A static residual (or "
            "turning it into a Python float before a static jit) compiles a program per value; "
            "keep it traced and branch with jnp.where or lax.cond")
    for r, out in zip(RESIDUALS, outs):
        checks.assert_close(out, np.float32(_expected(r)), what=f"pinball_loss({r})")
