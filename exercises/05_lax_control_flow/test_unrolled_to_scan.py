"""Checks for lax-7 (unrolled_to_scan)."""

import jax.numpy as jnp
import numpy as np

from grader import checks


def spring_reference(x0, v0, dt, steps):
    x, v, positions, velocities = x0, v0, [], []
    for _ in range(steps):
        v = v - dt * x
        x = x + dt * v
        positions.append(x)
        velocities.append(v)
    return np.array(positions, np.float32), np.array(velocities, np.float32)


def test_matches_the_loop_in_one_program_that_does_not_grow(exercise):
    x0, v0, dt = jnp.float32(1.0), jnp.float32(0.0), jnp.float32(0.1)
    sizes = {n: checks.jaxpr_size(lambda: exercise.simulate(x0, v0, dt, steps=n)) for n in (10, 1000)}
    checks.assert_not_unrolled(sizes, what="simulate(x0, v0, dt, steps)",
                               hint="lax.scan needs no xs to walk over: tell it how many steps "
                                    "to run with its length argument.")
    # The rewritten loop must reproduce the Python loop's trajectory, step for step...
    with checks.count_compiles() as first:
        for x0, v0, dt in ((1.0, 0.0, 0.1), (0.0, 2.0, 0.05)):
            got = exercise.simulate(jnp.float32(x0), jnp.float32(v0), jnp.float32(dt), steps=20)
            checks.assert_close(got, spring_reference(x0, v0, dt, 20), rtol=1e-4, atol=1e-5,
                                what=f"simulate({x0}, {v0}, {dt}, steps=20)",
                                hint="Carry (x, v), update v first and x with the new v, and emit "
                                     "the state after the update, as the Python loop appends it.")
    # ... from one jitted program that new starting states and time steps reuse.
    calls = [(jnp.float32(x), jnp.float32(v), jnp.float32(dt))
             for x, v, dt in ((0.5, 1.0, 0.1), (2.0, -1.0, 0.01), (1.0, 0.0, 0.2))]
    with checks.count_compiles() as log:
        for x0, v0, dt in calls:
            exercise.simulate(x0, v0, dt, steps=20)
    checks.assert_compiles(
        log, what="simulate(..., steps=20)", calls=f"{len(calls)} calls with new x0, v0 and dt",
        expected=0, warm_up=first,
        why="only steps may be static; x0, v0 and dt must stay traced so a new start or time "
            "step reuses the program")
    checks.assert_one_program(
        lambda *a: exercise.simulate(*a, steps=20), calls[1:], what="simulate(..., steps=20)",
        calls_text="new x0, v0 and dt", rtol=1e-4, atol=1e-5,
        expected=[spring_reference(x, v, dt, 20) for x, v, dt in ((2.0, -1.0, 0.01), (1.0, 0.0, 0.2))],
        why="only steps may be static; x0, v0 and dt must stay traced so a new start or time "
            "step reuses the program")
    checks.assert_jitted(lambda *a: exercise.simulate(*a, steps=20), *calls[0], what="simulate",
                         expected=spring_reference(0.5, 1.0, 0.1, 20), rtol=1e-4, atol=1e-5)
    # One rolled scan: not a loop copied into the program by unroll=, not host code.
    what = "simulate(x0, v0, dt, steps=1000)"
    program = checks.program_of(lambda *a: exercise.simulate(*a, steps=1000), *calls[0], what=what)
    # Read before the program is run: an unroll=True scan of 1000 steps takes minutes to compile.
    checks.assert_loops_rolled(program, what=what,
                               hint="unroll= puts the copies the Python loop made back into the "
                                    "program; leave the scan rolled.")
    checks.assert_computes(program, spring_reference(0.5, 1.0, 0.1, 1000), what=what, rtol=1e-3, atol=1e-3)
    checks.assert_uses(program, {"scan"}, what=what, tool="lax.scan")
    checks.assert_loop_returns(program, {"scan"}, what=what, tool="lax.scan", steps=(1000,),
                               hint="The states after every step are what the scan's steps stack.")
    checks.assert_loop_not_fed_steps(program, program.live("scan"), what=what, tool="lax.scan",
                                     hint="The spring needs no data per step: carry (x, v) and let each "
                                          "step compute the next state from the last.")
