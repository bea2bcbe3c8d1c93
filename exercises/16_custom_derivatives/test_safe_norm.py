"""Checks for custom-2 (safe_norm)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

CUSTOM_DOCS = f"{checks.DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html"
ZERO = np.zeros(3, np.float32)
# A zero row, ordinary rows, and a tiny one: x / (norm + eps) is visibly wrong at 5e-6.
ROWS = np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0], [3e-6, 4e-6, 0.0], [-2.0, 1.0, 2.0],
                 [1e3, -2e3, 2e3]], np.float32)
ROWS_TEXT = "[0, 0, 0], [3, 4, 0], [3e-6, 4e-6, 0], [-2, 1, 2], [1e3, -2e3, 2e3]"


def _unit(rows):
    rows = np.asarray(rows, np.float64)
    n = np.linalg.norm(rows, axis=-1, keepdims=True)
    return np.where(n > 0, rows / np.where(n > 0, n, 1.0), 0.0)


def _nan_lesson(exercise, got, what):
    """Fail with the reason a gradient is NaN: the chain rule, or a custom rule's unsafe division."""
    ruled = checks.program_of(exercise.norm, jnp.asarray(ZERO), what="norm").has("custom_jvp_call")
    why = ("Your custom_jvp rule is used, but its transpose still divides by zero: a jnp.where that "
           "discards dot(x, t) / n at n = 0 still computes it, and jax.grad runs the discarded branch "
           "backwards too, 0 * (1 / 0) = NaN. Make the denominator itself nonzero."
           if ruled else
           "The chain rule through sqrt gives 1 / (2 * sqrt(0)) * 2x = inf * 0 = NaN at x = 0. A "
           "jnp.where around the result does not help: the NaN is in the derivative. State the "
           "derivative yourself with jax.custom_jvp.")
    checks.fail(checks.sentence(f"{what} is {checks.short(got)}: NaN.", why, f"See {CUSTOM_DOCS}"))


def test_gradient_at_zero_is_zero_not_nan(exercise):
    tangent = np.asarray([1.0, -2.0, 0.5], np.float32)

    def both(x, t):  # reverse and forward mode in one compiled program
        return jax.grad(exercise.norm)(x), jax.jvp(exercise.norm, (x,), (t,))[1]

    try:
        grad, out_tangent = jax.jit(both)(jnp.asarray(ZERO), jnp.asarray(tangent))
    except TypeError as error:
        if "custom_vjp" not in str(error):
            raise
        checks.fail(f"jax.jvp(norm, (zeros(3),), (t,)) raised: forward-mode autodiff cannot run through "
                    f"a custom_vjp function, which defines reverse mode only. The task asks for "
                    f"jax.custom_jvp: its rule serves jax.jvp directly and jax.grad by transposition. "
                    f"See {CUSTOM_DOCS}", "wrong-tool")
    grad = np.asarray(grad)
    if not np.isfinite(grad).all():
        _nan_lesson(exercise, grad, "jax.jit(jax.grad(norm))(zeros(3))")
    checks.assert_close(grad, ZERO, what="jax.jit(jax.grad(norm))(zeros(3))",
                        hint="At x = 0 the rule's tangent is 0 (dot(x, t) is 0 there): a subgradient.")
    checks.assert_close(out_tangent, 0.0, what="the jax.jvp tangent of norm at zeros(3)")
    program = checks.program_of(exercise.norm, jnp.asarray(ROWS[3]), what="norm")
    checks.assert_computes(program, 3.0, what=f"norm({ROWS[3].tolist()})")
    checks.assert_uses(program, {"custom_jvp_call"}, what="norm", tool="jax.custom_jvp",
                       hint=f"Decorate norm with @jax.custom_jvp and define its rule with @norm.defjvp. "
                            f"See {CUSTOM_DOCS}")
    if not program.wraps("custom_jvp_call"):
        checks.fail(f"norm's program holds a custom_jvp_call, but not as norm itself: the rule belongs to "
                    f"a function applied to some other value (an intermediate, a result computed outside it and handed in, or a library function "
                    f"such as jax.nn.relu that has a rule of its own), so the derivative at 0 comes from "
                    f"something else. The task puts the rule on norm: x in, the norm out. See {CUSTOM_DOCS}",
                    "wrong-tool")
    # A rule that hands its division to NumPy on the host through a callback is finite too, but the
    # derivative is not JAX's work.
    checks.assert_computes(checks.program_of(jax.grad(exercise.norm), jnp.asarray(ROWS[3]), what="jax.grad(norm)"),
                           _unit(ROWS[3]), what=f"jax.grad(norm)({ROWS[3].tolist()})")


def test_gradients_and_values_under_jit_and_vmap(exercise):
    grads = np.asarray(jax.jit(jax.vmap(jax.grad(exercise.norm)))(jnp.asarray(ROWS)))
    if not np.isfinite(grads).all():
        _nan_lesson(exercise, grads[~np.isfinite(grads).all(axis=1)][0],
                    "jax.jit(jax.vmap(jax.grad(norm))) on a batch holding a zero row, at that row,")
    want = _unit(ROWS)
    wrong = ~np.isclose(grads, want, rtol=1e-5, atol=1e-6).all(axis=1)
    only_tiny = wrong[2] and not wrong[[0, 1, 3, 4]].any()
    hint = ("Away from 0 the gradient is the unit vector x / norm(x), for tiny vectors too: an epsilon "
            "added to the denominator is visible at |x| = 5e-6." if only_tiny else
            "The rule's tangent is dot(x, t) / norm(x), so jax.grad gives the unit vector x / norm(x).")
    checks.assert_close(grads, want, what=f"jax.jit(jax.vmap(jax.grad(norm)))(rows) for rows {ROWS_TEXT}",
                        hint=hint)
    values = jax.jit(jax.vmap(exercise.norm))(jnp.asarray(ROWS))
    checks.assert_close(values, np.linalg.norm(ROWS.astype(np.float64), axis=1),
                        what="jax.jit(jax.vmap(norm))(rows)",
                        hint="The custom rule changes the derivative only: norm still returns "
                             "sqrt(sum(x**2)).")
