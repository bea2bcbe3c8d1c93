"""Checks for memory-4 (scan_unroll)."""

import re

import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

SCAN_DOCS = f"{checks.DOCS}/_autosummary/jax.lax.scan.html"
START = (jnp.float32(1.2), jnp.float32(0.0), jnp.float32(0.1))  # theta0, omega0, dt


def _reference(theta, omega, dt, steps):
    thetas = []
    for _ in range(steps):
        omega = omega - dt * np.sin(theta)
        theta = theta + dt * omega
        thetas.append(theta)
    return np.array(thetas)


def test_scan_runs_four_steps_per_iteration(exercise):
    steps = 64
    program = checks.program_of(lambda *a: exercise.swing(*a, steps=steps), *START,
                                what=f"swing(theta0, omega0, dt, steps={steps})")
    checks.assert_computes(program, _reference(1.2, 0.0, 0.1, steps), rtol=1e-4, atol=1e-5,
                           what=f"swing(1.2, 0.0, 0.1, steps={steps})")
    # Live scans only: a scan beside the real work whose result is thrown away (or multiplied by zero,
    # or folded in where it never changes the angles) has no result to follow.
    scans = [eqn for eqn in program.live("scan") if eqn.params.get("length") == steps]
    if not scans and any(eqn.params.get("length") == steps for eqn in program.find("scan")):
        checks.fail(f"swing(..., steps={steps}) has a scan over the {steps} steps, but nothing it returns "
                    f"follows it (its result is thrown away, multiplied by zero or folded in where it never "
                    f"changes them); the angles come from "
                    f"{program.primitives().count('sin')} copies of the step's sin written out beside it. Keep "
                    f"the one scan and let its own unroll parameter copy the step. See {SCAN_DOCS}", "wrong-tool")
    if not scans:
        copies = program.primitives().count("sin")
        if program.find("scan") and copies > 1:
            lengths = sorted({eqn.params.get("length") for eqn in program.find("scan")})
            checks.fail(f"swing(..., steps={steps}) copies the step by hand: its program has a scan of "
                        f"{' or '.join(map(str, lengths))} iterations holding {copies} copies of the step's sin, "
                        f"and no scan over the {steps} steps. The task is the scan's own unroll parameter: "
                        f"one step in the body, {steps} iterations, and the factor left to lax.scan (which "
                        f"also handles the steps left over). See {SCAN_DOCS}", "wrong-tool")
        code = "unrolled" if copies > 1 else "wrong-tool"
        checks.fail(f"swing(..., steps={steps}) has no lax.scan over the {steps} steps in its program "
                    f"({copies} copies of the step's sin): keep the step in one lax.scan and unroll it with "
                    f"the scan's own parameter. See {SCAN_DOCS}", code)
    # The step itself runs in the scan's body: a scan that only copies angles computed by a step
    # written out beside it is live, but loops over nothing.
    inside = sum(checks.Program(eqn.params["jaxpr"]).primitives().count("sin") for eqn in scans)
    outside = _sin_outside_scans(program.jaxpr)
    if not inside or outside:
        checks.fail(f"swing(..., steps={steps}) has a scan over the {steps} steps, but the step is not in its "
                    f"body: {outside} copies of the step's sin are written out beside it, and the scan only "
                    f"passes their results along. The task keeps one step in the scan's body and lets its "
                    f"unroll parameter copy it. See {SCAN_DOCS}", "unrolled" if outside > 1 else "wrong-tool")
    # Whatever spells the step (sin or otherwise), the program outside the scan stays one size for any
    # number of steps: steps written out beside the scan grow it, one copy per step.
    longer = checks.program_of(lambda *a: exercise.swing(*a, steps=2 * steps), *START,
                               what=f"swing(theta0, omega0, dt, steps={2 * steps})")
    sizes = (len(program.primitives()), len(longer.primitives()))
    if sizes[0] != sizes[1]:
        checks.fail(f"swing's traced program grows with steps ({steps} steps: {sizes[0]} equations, "
                    f"{2 * steps}: {sizes[1]}): steps are written out one by one beside the scan (a Python loop), "
                    f"and the scan does not run the step. The task keeps one step in the scan's body, "
                    f"and the program the same size for any steps. See {SCAN_DOCS}", "unrolled")
    checks.assert_loop_not_fed_steps(program, scans, what=f"swing(..., steps={steps})", tool="scan",
                                     hint=f"Keep the step in the scan's body, on its carry. See {SCAN_DOCS}")
    # Every scan that runs the steps, not just one: a fully unrolled scan doing the work beside a
    # partial one (their results averaged) still copies the step into the program steps times.
    unroll = max((eqn.params.get("unroll", 1) for eqn in scans), key=lambda u: steps if u is True else int(u))
    factor = steps if unroll is True else int(unroll)
    if factor >= steps:
        checks.fail(f"swing(..., steps={steps}): {'the' if len(scans) == 1 else 'a'} scan over the steps is "
                    f"fully unrolled (unroll={unroll!r}), so the "
                    f"compiled program holds {steps} copies of the step and grows with steps. Unroll it "
                    f"partially: 4 steps per loop iteration. See {SCAN_DOCS}", "unrolled")
    if factor != 4:
        checks.fail(f"swing(..., steps={steps}): the scan runs {factor} step(s) per loop iteration "
                    f"(unroll={unroll!r}); the task asks for 4: a loop of steps / 4 iterations with 4 copies "
                    f"of the step in each. See {SCAN_DOCS}", "unrolled" if factor > 4 else "wrong-tool")
    # 10 is not a multiple of 4: two steps are left over after the loop.
    got = exercise.swing(*START, steps=10)
    checks.assert_close(got, _reference(1.2, 0.0, 0.1, 10), rtol=1e-5, atol=1e-6,
                        what="swing(1.2, 0.0, 0.1, steps=10)",
                        hint="Unrolling must not change the numbers: update omega first, then theta with "
                             "the new omega, and emit theta after each step.")


def _sin_outside_scans(jaxpr):
    """The step's sines written out in the program itself, not in any scan's body."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    return sum(1 if eqn.primitive.name == "sin" else 0 if eqn.primitive.name == "scan" else
               sum(_sin_outside_scans(sub) for sub in jax.extend.core.jaxprs_in_params(eqn.params))
               for eqn in jaxpr.eqns)


def test_compiled_loop_holds_four_steps(exercise):
    steps = 16
    compiled = checks.compiled_program(lambda *a: exercise.swing(*a, steps=steps), *START,
                                       what=f"swing(..., steps={steps})")
    # XLA records each while loop's trip count when it can prove it: steps / unroll here.
    trips = [int(n) for n in re.findall(r'"known_trip_count":\{"n":"(\d+)"\}', compiled.text)]
    if not re.search(r"\bwhile\(", compiled.text):
        checks.fail(f"The compiled swing(..., steps={steps}) has no loop: every step is copied into the "
                    f"program one after another, so the program grows with steps. Keep a loop with 4 steps "
                    f"per iteration. See {SCAN_DOCS}", "unrolled")
    if steps // 4 not in trips:
        counted = " or ".join(str(t) for t in trips) or "an unknown number of"
        per = " or ".join(f"{steps / t:g}" for t in trips if t) or "an unknown number of"
        checks.fail(f"The compiled swing(..., steps={steps}) loops {counted} times, {per} step(s) per "
                    f"iteration; expected {steps // 4} iterations of 4 steps each. See {SCAN_DOCS}",
                    "unrolled" if trips and min(trips) < steps // 4 else "wrong-tool")
    got = compiled.executable(*START)
    checks.assert_close(got, _reference(1.2, 0.0, 0.1, steps), rtol=1e-5, atol=1e-6,
                        what=f"swing(1.2, 0.0, 0.1, steps={steps})")
