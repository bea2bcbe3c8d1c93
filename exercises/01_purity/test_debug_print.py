"""Checks for purity-3 (debug_print)."""

import re

import jax
import jax.numpy as jnp

from grader import checks

# (x, velocity) -> new position; values that print exactly.
CALLS = [((1.0, 10.0), 10.0), ((2.0, 20.0), 20.0), ((-3.0, 30.0), 24.0)]
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


def _call(exercise, x, velocity):
    out = exercise.damped_step(jnp.float32(x), jnp.float32(velocity))
    jax.effects_barrier()  # debug prints are asynchronous: wait for them
    return out


def test_prints_the_actual_position_on_every_call_compiled_once(exercise, capsys):
    capsys.readouterr()
    for (x, velocity), position in CALLS:
        out = _call(exercise, x, velocity)
        printed = capsys.readouterr().out
        checks.assert_close(out, position, what=f"damped_step({x}, {velocity})")
        if "Tracer" in printed:
            checks.fail(f"damped_step printed a tracer ({printed.strip()!r}), not a value: Python's print "
                        f"runs while jit traces, when there are only abstract values. Use jax.debug.print. "
                        f"See {checks.DOCS}/debugging.html")
        numbers = [float(n) for n in NUMBER.findall(printed)]
        if position not in numbers:
            checks.fail(f"damped_step({x}, {velocity}) printed {printed.strip()!r}; expected the new "
                        f"position {position} to be printed on this call. A Python print inside jit runs "
                        f"only while tracing (the first call); jax.debug.print is part of the compiled "
                        f"program and runs every call. See {checks.DOCS}/debugging.html")
    # Printing right is not enough: it must come from the one compiled program.
    checks.assert_jitted(exercise.damped_step, jnp.float32(1.0), jnp.float32(2.0), what="damped_step")
    with checks.count_compiles() as log:  # the loop above compiled already
        for (x, velocity), position in CALLS:
            checks.assert_close(_call(exercise, x, velocity), position, what=f"damped_step({x}, {velocity})")
    checks.assert_compiles(log, what="damped_step()", calls="3 more calls with the same shapes", expected=0,
                           why="printing must not force a retrace: keep the function jitted and print "
                               "with jax.debug.print, which lives inside the compiled program")
