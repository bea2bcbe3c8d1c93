"""Checks for grad-7 (stable_softplus)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# Not exactly 0: there the textbook rewrite max(x, 0) + log1p(e^-|x|) gets JAX subgradients
# (0.5 for max, 1 for abs) that do not cancel, a kink artefact beside the point here.
MODERATE = np.array([-5.0, -1.0, -0.25, 0.5, 1.0, 5.0], np.float32)
LARGE = np.array([-1000.0, -100.0, 90.0, 100.0, 1000.0], np.float32)
# Far left, softplus(x) ~ e^x is tiny but far from 0 in float32: log(1 + e^x) rounds 1 + e^x to 1.
TAIL = np.array([-20.0, -30.0, -60.0], np.float32)


def _softplus64(x):
    return np.logaddexp(0.0, np.asarray(x, np.float64))


def _sigmoid64(x):
    x = np.asarray(x, np.float64)
    return np.exp(-np.logaddexp(0.0, -x))


def test_values_at_moderate_and_large_inputs(exercise):
    # The large inputs first: that is where the literal formula overflows.
    got = np.asarray(jax.vmap(exercise.softplus)(jnp.asarray(LARGE)))
    checks.assert_close(got, _softplus64(LARGE), what=f"softplus({LARGE.tolist()})",
                        hint="e^x overflows float32 above x = 88, and log(inf) is inf. Never "
                             "exponentiate a large positive number: take the max(x, 0) part out "
                             "first, as logsumexp does, so the exponent is never positive.")
    got = jax.vmap(exercise.softplus)(jnp.asarray(MODERATE))
    checks.assert_close(got, _softplus64(MODERATE), what="softplus(x) for x in [-5, 5]")
    got = np.asarray(jax.vmap(exercise.softplus)(jnp.asarray(TAIL)))
    want = _softplus64(TAIL)
    if not np.allclose(got, want, rtol=1e-4, atol=0.0):
        checks.fail(f"softplus({TAIL.tolist()}) returned {got.tolist()}; expected about "
                    f"{want.astype(np.float32).tolist()}. Far left, 1 + e^x rounds to exactly 1 in "
                    f"float32, so log(1 + e^x) loses the whole answer; jnp.log1p computes log(1 + small) "
                    f"without forming 1 + small.", "precision")


def test_gradient_is_sigmoid_with_no_nan(exercise):
    # The large inputs first: that is where the literal formula's gradient is NaN.
    got = np.asarray(jax.vmap(jax.grad(exercise.softplus))(jnp.asarray(LARGE)))
    if not np.isfinite(got).all():
        bad = LARGE[~np.isfinite(got)].tolist()
        checks.fail(f"jax.grad(softplus) is {got[~np.isfinite(got)].tolist()} at x = {bad}. The "
                    f"derivative of log(1 + e^x) is e^x / (1 + e^x) = inf / inf there. A jnp.where "
                    f"that picks a safe value does not help: both branches are differentiated, and "
                    f"0 * NaN = NaN. Rewrite without e^(large x), or define the derivative with "
                    f"jax.custom_jvp. See "
                    f"{checks.DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html")
    checks.assert_close(got, _sigmoid64(LARGE), what=f"jax.grad(softplus) at {LARGE.tolist()}")
    got = jax.vmap(jax.grad(exercise.softplus))(jnp.asarray(MODERATE))
    checks.assert_close(got, _sigmoid64(MODERATE), what="jax.grad(softplus)(x) for x in [-5, 5]",
                        hint="d/dx softplus(x) = sigmoid(x) = 1 / (1 + e^-x); check a custom "
                             "derivative rule against it.")


def test_gradient_under_jit(exercise):
    got = jax.jit(jax.grad(exercise.softplus))(jnp.float32(200.0))
    checks.assert_close(got, 1.0, what="jax.jit(jax.grad(softplus))(200.0)",
                        hint="The stable form must hold inside compiled code too.")
    # A float64 NumPy softplus on the host, reached through a callback, is stable too, but none of
    # it is JAX: the stability has to live in the traced program.
    x = jnp.asarray(MODERATE)
    for fn, what, want in ((exercise.softplus, "softplus(x)", _softplus64(MODERATE)),
                           (jax.grad(exercise.softplus), "jax.grad(softplus)(x)", _sigmoid64(MODERATE))):
        checks.assert_computes(checks.program_of(jax.vmap(fn), x, what=what), want, what=what)
