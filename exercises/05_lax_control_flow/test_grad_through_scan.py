"""Checks for lax-8 (grad_through_scan)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

DEPOSITS = np.linspace(50.0, 150.0, 12).astype(np.float32)
RATES = (0.0, 0.01, 0.05)


def closed_form(rate, deposits):
    """(balance, d balance / d rate): deposit t compounds for the T-1-t later months."""
    later = np.arange(len(deposits) - 1, -1, -1, dtype=np.float64)
    d = deposits.astype(np.float64)
    balance = np.sum(d * (1 + rate) ** later)
    slope = np.sum(d * later * (1 + rate) ** np.maximum(later - 1, 0))
    return balance, slope


def test_final_balance_compounds_each_month(exercise):
    deposits = jnp.asarray(DEPOSITS)
    for rate in RATES:
        got = exercise.final_balance(jnp.float32(rate), deposits)
        checks.assert_close(got, closed_form(rate, DEPOSITS)[0], rtol=1e-5,
                            what=f"final_balance({rate}, deposits)",
                            hint="Each month: grow the balance first, then add the deposit; "
                                 "the scan's final carry is the answer.")


def test_gradient_matches_the_analytic_slope(exercise):
    deposits = jnp.asarray(DEPOSITS)
    for rate in RATES:
        got = exercise.rate_sensitivity(jnp.float32(rate), deposits)
        checks.assert_shape_dtype(got, (), jnp.float32, what=f"rate_sensitivity({rate}, deposits)",
                                  hint="Differentiate with respect to rate (argument 0), a scalar.")
        # Reverse mode is exact up to float32 rounding (~3e-7 here); a finite difference in
        # float32 cannot get closer than ~1e-5, so it cannot pass.
        checks.assert_close(got, closed_form(rate, DEPOSITS)[1], rtol=3e-6,
                            what=f"rate_sensitivity({rate}, deposits)",
                            hint="jax.grad of final_balance differentiates exactly through every "
                                 "step of the scan; a finite difference only approximates the "
                                 "slope, and a stop_gradient or a value computed outside the "
                                 "traced path cuts the chain.")


def test_gradient_matches_finite_differences(exercise):
    # Central differences of the learner's own balance: the gradient must
    # describe the function actually computed, whatever its formula.
    deposits, eps = jnp.asarray(DEPOSITS), 1e-3
    for rate in (0.01, 0.05):
        up = float(exercise.final_balance(jnp.float32(rate + eps), deposits))
        down = float(exercise.final_balance(jnp.float32(rate - eps), deposits))
        got = exercise.rate_sensitivity(jnp.float32(rate), deposits)
        checks.assert_close(got, (up - down) / (2 * eps), rtol=2e-3,
                            what=f"rate_sensitivity({rate}, deposits)",
                            hint="The gradient disagrees with how final_balance changes when rate "
                                 "moves: compute it with jax.grad of final_balance itself.")


def test_one_scan_forward_and_backward(exercise):
    rate, deposits = jnp.float32(0.01), jnp.asarray(DEPOSITS)
    what = "final_balance(rate, deposits)"
    # The task keeps the jit: each call is one compiled program, the scan and its backward pass in it.
    checks.assert_jitted(exercise.final_balance, rate, deposits, what=what)
    checks.assert_jitted(exercise.rate_sensitivity, rate, deposits, what="rate_sensitivity(rate, deposits)")
    balance, slope = closed_form(0.01, DEPOSITS)
    forward = checks.program_of(exercise.final_balance, rate, deposits, what=what)
    checks.assert_computes(forward, balance, what=what, rtol=1e-5)
    checks.assert_uses(forward, {"scan"}, what=what, tool="lax.scan",
                       hint="A compound-interest formula gives the balance without the loop "
                            "this exercise differentiates through: scan over the deposits.")
    checks.assert_loop_returns(forward, {"scan"}, what=what, tool="lax.scan", steps=(len(DEPOSITS) - 1, len(DEPOSITS)),
                               walks={1: ("deposits", 0)})
    checks.assert_loops_rolled(forward, what=what)
    sizes = {n: checks.jaxpr_size(exercise.rate_sensitivity, rate, jnp.ones(n, jnp.float32))
             for n in (12, 600)}
    checks.assert_not_unrolled(sizes, what="rate_sensitivity(rate, deposits)",
                               hint="Scan over deposits; jax.grad of a scan is again a scan.")
    what = "rate_sensitivity(rate, deposits)"
    backward = checks.program_of(exercise.rate_sensitivity, rate, deposits, what=what)
    checks.assert_computes(backward, slope, what=what, rtol=1e-5)
    if not any(eqn.params.get("reverse") for eqn in backward.loops() if eqn.primitive.name == "scan"):
        checks.fail(f"{what}: its program has no scan running backwards over the months, the "
                    f"backward pass reverse-mode differentiation (jax.grad) builds from the scan in "
                    f"final_balance. The slope was derived some other way (a formula worked out by "
                    f"hand, a derivative carried forward step by step, forward mode): the task is "
                    f"to let jax.grad do the calculus. See {checks.DOCS}/_autosummary/jax.grad.html",
                    "wrong-tool")
    checks.assert_loops_rolled(backward, what=what)
    # "Keep the jit": both functions stay compiled programs, not op-by-op dispatch.
    checks.assert_jitted(exercise.final_balance, rate, deposits, what="final_balance", entirely=True)
    checks.assert_jitted(exercise.rate_sensitivity, rate, deposits, what="rate_sensitivity", entirely=True)
