"""Checks for custom-3 (straight_through)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

CUSTOM_DOCS = f"{checks.DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html"
# Halves (to even: -0.5 -> -0, 0.5 -> 0, 1.5 -> 2, 2.5 -> 2) and values either side of them.
X = np.array([-1.7, -0.5, 0.2, 0.5, 1.5, 2.5, 3.49, -2.5, 7.0], np.float32)
# The cotangent arriving at quantize's output: the identity hands it back unchanged.
G = np.array([3.0, -2.0, 0.5, 1.25, -0.75, 2.0, 4.0, -1.5, 0.25], np.float32)


def _zero_gradient(exercise, what):
    """Fail for a gradient that is 0 everywhere: no rule yet, or a rule that ignores the tangent."""
    program = checks.program_of(exercise.quantize, jnp.asarray(X), what="quantize")
    if program.has("custom_jvp_call", "custom_vjp_call"):
        checks.fail(f"{what} is 0 everywhere, although quantize has a custom rule. jax.grad transposes the "
                    f"rule as a linear function of the incoming tangent t: a tangent that does not depend "
                    f"on t (ones_like(t), a constant) transposes to 0. The straight-through tangent is t "
                    f"itself. See {CUSTOM_DOCS}")
    checks.fail(f"{what} is 0 everywhere: JAX's derivative of round is 0 (it is flat between the "
                f"integers), so nothing upstream of quantize ever learns. A straight-through estimator "
                f"keeps the rounded value but passes the gradient through as if quantize were the "
                f"identity: define that derivative with jax.custom_jvp (or jax.custom_vjp). "
                f"See {CUSTOM_DOCS}")


def test_gradient_passes_straight_through(exercise):
    grad = jax.jit(jax.grad(lambda x, g: jnp.sum(g * exercise.quantize(x))))(jnp.asarray(X), jnp.asarray(G))
    if np.allclose(grad, 0.0):
        _zero_gradient(exercise, "jax.jit(jax.grad(...)) of sum(g * quantize(x))")
    checks.assert_close(grad, G, what=f"jax.grad of sum(g * quantize(x)) with g = {checks.short(G)}",
                        hint="Straight through means the identity: the tangent (or cotangent) leaves "
                             "the rule exactly as it came in, not replaced by ones.")
    program = checks.program_of(exercise.quantize, jnp.asarray(X), what="quantize")
    checks.assert_computes(program, np.round(X), what="quantize(x)", rtol=0, atol=0)
    checks.assert_uses(program, {"custom_jvp_call", "custom_vjp_call"}, what="quantize",
                       tool="a custom derivative rule (jax.custom_jvp or jax.custom_vjp)",
                       hint="The stop_gradient trick reaches the same numbers through arithmetic; here "
                            f"the estimator is stated as a rule. See {CUSTOM_DOCS}")
    if not program.wraps("custom_jvp_call", "custom_vjp_call"):
        checks.fail(f"quantize's program holds a custom rule, but quantize's result does not come out of "
                    f"it: the rounded value and its gradient come from arithmetic around the rule (a "
                    f"stop_gradient trick, say), or the rule belongs to some other value. The estimator is "
                    f"the rule of quantize itself: x in, round(x) out. See {CUSTOM_DOCS}", "wrong-tool")
    # NumPy's rounding on the host, through a callback, gives the same values, but not jnp.round's.
    what = "jax.grad of sum(g * quantize(x))"
    checks.assert_computes(checks.program_of(jax.grad(lambda x, g: jnp.sum(g * exercise.quantize(x))), jnp.asarray(X),
                                             jnp.asarray(G), what=what), G, what=what, rtol=0, atol=0)


def test_rounds_exactly_under_jit_and_vmap(exercise):
    values, grads = jax.jit(jax.vmap(jax.value_and_grad(exercise.quantize)))(jnp.asarray(X))
    if np.allclose(grads, 0.0):
        _zero_gradient(exercise, "the gradient of quantize under jax.jit(jax.vmap(jax.value_and_grad(...)))")
    checks.assert_close(grads, np.ones_like(X), what="the per-element gradients of quantize under "
                        "jax.jit(jax.vmap(jax.value_and_grad(quantize)))",
                        hint="The straight-through derivative of quantize is 1 at every element.")
    checks.assert_close(values, np.round(X), rtol=0, atol=0,
                        what=f"quantize({checks.short(X)}) under jit and vmap",
                        hint="Round to the nearest integer with halves going to the even one, as "
                             "jnp.round does (0.5 -> 0, 1.5 -> 2, 2.5 -> 2); the rule changes only "
                             "the gradient.")
