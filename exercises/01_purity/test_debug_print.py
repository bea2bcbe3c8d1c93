"""Checks for purity-3 (debug_print)."""

import re

import jax
import jax.numpy as jnp

from grader import checks

# (x, velocity) -> new position; values that print exactly.
CALLS = [((1.0, 10.0), 10.0), ((2.0, 20.0), 20.0), ((-3.0, 30.0), 24.0)]
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
# Ways a print can live inside the compiled program and run on every call.
PRINTS_IN_PROGRAM = ("debug_print", "debug_callback", "io_callback")


# New values, printed by the program damped_step is part of when a bigger jitted function calls it.
NESTED_CALLS = [((0.5, 5.0), 5.0), ((4.0, -10.0), -5.0)]


def _call_nested(outer, x, velocity):
    outer(jnp.float32(x), jnp.float32(velocity))
    jax.effects_barrier()


def _call(exercise, x, velocity):
    out = exercise.damped_step(x, velocity)
    jax.effects_barrier()  # debug prints are asynchronous: wait for them
    return out


def _check_printed(printed, x, velocity, position, when):
    if "Tracer" in printed:
        checks.fail(f"damped_step printed a tracer ({printed.strip()!r}), not a value: Python's print "
                    f"runs while jit traces the function, when there are only abstract values, and "
                    f"never again. Printing from inside the compiled program is a job for JAX's own "
                    f"debugging print. See {checks.DOCS}/debugging.html", "trace-time-effect")
    numbers = [float(n) for n in NUMBER.findall(printed)]
    if not numbers:
        checks.fail(f"damped_step({x}, {velocity}) printed nothing on {when}; expected the new position "
                    f"{position}. A Python print inside jit runs only while tracing (the first call with "
                    f"these shapes); a print that is part of the compiled program runs on every call. "
                    f"See {checks.DOCS}/debugging.html", "trace-time-effect")
    if position not in numbers:
        checks.fail(f"damped_step({x}, {velocity}) printed {printed.strip()!r}; expected the new position "
                    f"{position} (x + 0.9 * velocity) among the printed numbers: print the updated "
                    f"position, not an input.", "wrong-values")


def test_prints_the_actual_position_on_every_call_compiled_once(exercise, capsys):
    args = [(jnp.float32(x), jnp.float32(v)) for (x, v), _ in CALLS]
    capsys.readouterr()
    with checks.count_compiles() as first:  # 3 new values, the same shapes: one program
        for ((x, velocity), position), (xa, va) in zip(CALLS, args):
            out = _call(exercise, xa, va)
            _check_printed(capsys.readouterr().out, x, velocity, position, "its first call")
            checks.assert_close(out, position, what=f"damped_step({x}, {velocity})")
    checks.assert_compiles(first, what="damped_step()", calls="3 calls with new values and the same shapes",
                           at_most=1,
                           why="the values reach the program as compile-time constants (static "
                               "arguments, or Python floats a static jit can print), so each value "
                               "compiles anew. Keep x and velocity traced; the print must come from "
                               "inside the one compiled program")
    with checks.count_compiles() as log:
        for ((x, velocity), position), (xa, va) in zip(CALLS, args):
            out = _call(exercise, xa, va)
            _check_printed(capsys.readouterr().out, x, velocity, position, "a repeated call")
            checks.assert_close(out, position, what=f"damped_step({x}, {velocity})")
    checks.assert_compiles(log, what="damped_step()", calls="3 more calls with the same shapes", expected=0,
                           warm_up=first,
                           why="printing must not force a retrace: the print belongs inside the "
                               "compiled program, which runs every call without tracing again")
    checks.assert_one_program(
        exercise.damped_step, args, what="damped_step", calls_text="3 calls with new values and the same shapes",
        why="the values reach the program as compile-time constants: keep x and velocity traced")
    for ((x, velocity), position), call in zip(CALLS, args):
        checks.assert_computes(checks.program_of(exercise.damped_step, *call, what="damped_step"), position,
                               what=f"damped_step({x}, {velocity})", effects=True)
    # Printing right is not enough: the print must be part of the compiled program, or
    # damped_step called from inside any bigger jitted function (a training step) prints tracers.
    program = checks.program_of(exercise.damped_step, *args[0], what="damped_step")
    if not program.has(*PRINTS_IN_PROGRAM):
        checks.fail(f"damped_step prints from Python around its compiled program, not from inside it: "
                    f"its traced program holds no print ({', '.join(sorted(set(program.primitives())))}). "
                    f"Called from another jitted function (a training step, a scan), that print would "
                    f"run once while tracing and show a tracer. Put the print inside the jitted "
                    f"function with JAX's debugging print. See {checks.DOCS}/debugging.html",
                    "trace-time-effect")
    checks.assert_computes(program, CALLS[0][1], what=f"damped_step{CALLS[0][0]}", effects=True)
    # The program read is the one a call runs: a call that prints from Python around another program
    # does not print from inside the compiled one.
    checks.assert_called_as_traced(exercise.damped_step, *args[0], what="damped_step", program=program,
                                   nothing_else=True)
    # ... and it must be the print that shows the position: called inside a bigger jitted
    # function, with values it has not seen, each call must still print its own position.
    outer = jax.jit(lambda x, velocity: exercise.damped_step(x, velocity) * 1.0)
    capsys.readouterr()
    for (x, velocity), position in NESTED_CALLS:
        try:
            _call_nested(outer, x, velocity)
        except (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError) as error:
            checks.fail(f"damped_step called inside another jitted function raised "
                        f"{type(error).__name__}: it converts the traced position to a Python value to "
                        f"print it, which only works outside jit. Printing from inside the compiled "
                        f"program is a job for JAX's own debugging print. "
                        f"See {checks.DOCS}/debugging.html", "trace-time-effect")
        printed = capsys.readouterr().out
        numbers = [float(n) for n in NUMBER.findall(printed.replace("float32", ""))]
        if position not in numbers:
            checks.fail(f"called inside another jitted function, damped_step({x}, {velocity}) printed "
                        f"{printed.strip()!r}; expected the new position {position}. The position is "
                        f"printed by Python around the compiled program (the print inside it shows "
                        f"something else), so inside a bigger jitted function, such as a training "
                        f"step, it shows a tracer once and then nothing. The print that shows the "
                        f"position must itself be part of the program. See {checks.DOCS}/debugging.html",
                        "trace-time-effect")
