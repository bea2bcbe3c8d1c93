"""Checks for lax-2 (while_newton)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

VALUES = [0.25, 2.0, 10.0, 1000.0]


def newton_reference(a, tol, max_steps=100):
    """The task's iteration in float32 NumPy: (root, steps)."""
    a, tol, half = np.float32(a), np.float32(tol), np.float32(2)
    x, steps = a, 0
    while steps < max_steps:
        new = np.float32((x + a / x) / half)
        steps, change, x = steps + 1, abs(new - x), new
        if change <= tol:
            break
    return x, steps


def test_converges_to_the_square_root(exercise):
    tol = jnp.float32(1e-5)
    for a in VALUES:
        root, _ = exercise.newton_sqrt(jnp.float32(a), tol)
        checks.assert_close(root, np.sqrt(np.float32(a)), what=f"newton_sqrt({a}, 1e-5)[0]",
                            hint="Each step is x = (x + a / x) / 2, starting from x = a.")


def test_stops_at_the_tolerance_given(exercise):
    # The loose tolerances stop after different numbers of steps, so an answer
    # that ignores tol (or tests the wrong quantity) shows here.
    for tol in (1.0, 0.01):
        for a in VALUES:
            want_root, want_steps = newton_reference(a, tol)
            root, steps = exercise.newton_sqrt(jnp.float32(a), jnp.float32(tol))
            checks.assert_close(
                (root, steps), (want_root, want_steps), what=f"newton_sqrt({a}, {tol})",
                hint="Stop right after the first update whose change |new - old| is at most "
                     "tol, and count every update: cond_fun sees the state body_fun returned, "
                     "so carry the last change in the loop state (start it at jnp.inf).")


def test_compiles_once_for_many_values_and_tolerances(exercise):
    calls = [(jnp.float32(a), jnp.float32(t)) for a in VALUES for t in (1.0, 1e-3)]
    with checks.count_compiles() as first:
        exercise.newton_sqrt(jnp.float32(3.0), jnp.float32(1e-4))  # the one compile
    with checks.count_compiles() as log:
        for a, tol in calls:
            exercise.newton_sqrt(a, tol)
    checks.assert_compiles(
        log, what="newton_sqrt()", calls=f"{len(calls)} calls with new values and tolerances",
        expected=0, warm_up=first,
        why="a or tol is reaching the program as a compile-time constant (a static argument): "
            "lax.while_loop decides when to stop at run time, so both can stay traced")
    checks.assert_one_program(
        exercise.newton_sqrt, [calls[0], calls[3]], what="newton_sqrt()",
        calls_text="two new values and tolerances",
        expected=[newton_reference(float(a), float(tol)) for a, tol in (calls[0], calls[3])],
        why="a or tol is reaching the program as a compile-time constant (a static argument): "
            "lax.while_loop decides when to stop at run time, so both can stay traced")
    checks.assert_jitted(exercise.newton_sqrt, jnp.float32(3.0), jnp.float32(1e-4), what="newton_sqrt",
                         expected=newton_reference(3.0, 1e-4))


def test_stops_inside_the_program_with_while_loop(exercise):
    what = "newton_sqrt(10.0, 0.01)"
    program = checks.program_of(exercise.newton_sqrt, jnp.float32(10.0), jnp.float32(0.01), what=what)
    checks.assert_computes(program, newton_reference(10.0, 0.01), what=what)
    checks.assert_uses(
        program, {"while"}, what=what, tool="lax.while_loop",
        hint="Without a while loop in the program the number of steps cannot depend on a and tol "
             "at run time: a fixed-length loop (a fori_loop with fixed bounds is a scan) runs every "
             "step whatever the data, even when it masks the late ones out. Let the loop's "
             f"condition decide. See {checks.DOCS}/_autosummary/jax.lax.while_loop.html")
    checks.assert_not_uses(program, {"scan"}, what=what,
                           why="A fixed-length loop (lax.scan, or a fori_loop with fixed bounds) runs every step "
                               "whatever the data, masking the late ones: the Newton steps belong in the "
                               "while_loop, one per trip, its condition deciding after each.")
    updates = newton_reference(10.0, 0.01)[1]
    checks.assert_loop_returns(program, {"while"}, what=what, tool="lax.while_loop", trips=(updates - 1, updates + 1),
                               hint="One trip per Newton update, the condition deciding after each.")
    checks.assert_loop_stops_on_data(
        program, what=what,
        hint="Carry the last change in the loop state and let the condition compare it with tol "
             "(and the step count with MAX_STEPS).")


def capped_at_max_steps(exercise):
    """Module level, so the helper process can run it (see the check below)."""
    for a in (2.0, 1000.0):
        root, steps = exercise.newton_sqrt(jnp.float32(a), jnp.float32(-1.0))
        want_root, want_steps = newton_reference(a, -1.0)
        checks.assert_close(
            (root, steps), (want_root, want_steps), what=f"newton_sqrt({a}, -1.0)",
            hint="A tolerance of -1 can never be met, so the loop must stop after exactly "
                 "MAX_STEPS updates: the condition tests the step count as well as the change.")


def test_step_cap_ends_a_loop_that_never_converges(exercise):
    # No update can move x by at most -1, so only the MAX_STEPS cap ends the loop. An answer with
    # no cap never returns, inside XLA where nothing interrupts it: run it where it can be stopped.
    checks.within_seconds(
        20, capped_at_max_steps, exercise, what="newton_sqrt(a, tol=-1.0)",
        why="A tolerance of -1 can never be met, so only a cap on the number of updates ends the "
            "loop; without one the compiled while_loop runs for ever.")
