"""Checks for static-2 (loop_count)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([4.0, 2.0, 9.0, 0.5], dtype=np.float32)


def _call(exercise, x, *args, **kwargs):
    """newton_sqrt(x, n), with the classic tracing mistakes explained rather than thrown."""
    try:
        return exercise.newton_sqrt(x, *args, **kwargs)
    except (jax.errors.TracerBoolConversionError, jax.errors.TracerIntegerConversionError,
            jax.errors.ConcretizationTypeError) as error:
        checks.fail(f"newton_sqrt cannot be traced ({type(error).__name__}): the Python loop needs n as a "
                    f"plain int while jit traces, but jit hands every argument over as a tracer unless it "
                    f"is told to pass that argument through as its value. See "
                    f"{checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "traced-value")
    except ValueError as error:
        if "Non-hashable static arguments" not in str(error):
            raise
        checks.fail("newton_sqrt marks x (argument 0, the array) static. Static arguments are cache keys, "
                    "so they must be hashable Python values, and arrays are not: arrays are what jit "
                    "traces, as data. Only the loop count belongs among the static arguments. "
                    f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "static-argument")


def _newton(n: int) -> np.ndarray:
    y = X.astype(np.float64)
    for _ in range(n):
        y = 0.5 * (y + X / y)
    return y


def test_applies_exactly_n_newton_steps(exercise):
    x = jnp.asarray(X)
    for n in (1, 2, 5):
        checks.assert_close(_call(exercise, x, n), _newton(n), what=f"newton_sqrt(x, {n})",
                            hint="Start from y = x and apply newton_step exactly n times.")
    checks.assert_close(_call(exercise, x, n=3), _newton(3), what="newton_sqrt(x, n=3)")


def _halfway(y, x):
    """Another step in newton_step's place: a step that is not Newton's."""
    return 0.5 * y + 1.0 / (1.0 + x)


def test_each_step_is_newton_step(exercise):
    # The task's loop applies the module's newton_step: with another step in its place, the result
    # follows it; a closed form or a copy of the formula does not. Shapes not traced before.
    x = np.array([4.0, 2.0, 9.0, 0.5, 3.0], dtype=np.float32)
    want = x.astype(np.float64)
    for _ in range(3):
        want = _halfway(want, x)
    with checks.swap_function(exercise, "newton_step", _halfway):
        got = _call(exercise, jnp.asarray(x), 3)
    checks.assert_follows(got, want, what="newton_sqrt(x, 3)", swapped="newton_step", rtol=1e-5, atol=1e-6,
                          hint="Apply the module's newton_step n times in the loop, not its formula (or a "
                               "closed form) written out.")


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    _call(exercise, x, 3)
    checks.assert_jitted(lambda v: exercise.newton_sqrt(v, 3), x, what="newton_sqrt(x, 3)", entirely=True)
    checks.assert_jitted(lambda v: exercise.newton_sqrt(v, n=3), x, what="newton_sqrt(x, n=3)", entirely=True,
                         expected=_newton(3))
    # The loop itself must be compiled: not a Python loop outside jit calling a jitted step n times.
    program = checks.program_of(lambda v: exercise.newton_sqrt(v, 3), x, what="newton_sqrt(x, 3)")
    checks.assert_computes(program, _newton(3), what="newton_sqrt(x, 3)")
    loops = sorted({eqn.primitive.name for eqn in program.loops()})
    if loops:
        checks.fail(f"newton_sqrt(x, 3) runs its steps in a lax loop (its program holds {', '.join(loops)}): "
                    f"the task is a Python loop with n static, so that Python runs the loop while jit "
                    f"traces and the program holds exactly n steps. A lax.fori_loop with a traced n needs "
                    f"no static argument at all, which is the other exercise's idea, not this one's. "
                    f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "wrong-tool")
    # n static: Python unrolls the loop while tracing, so a larger n is a longer program. A traced n
    # (a fixed number of masked steps, say) compiles one program of the same size for every n.
    sizes = {n: checks.jaxpr_size(lambda v, n=n: exercise.newton_sqrt(v, n), x) for n in (2, 5)}
    if sizes[5] <= sizes[2]:
        checks.fail(f"newton_sqrt(x, 2) and newton_sqrt(x, 5) trace to programs of the same size ({sizes[2]} "
                    f"and {sizes[5]} equations): n reaches the program as traced data, and the same steps "
                    f"run whatever n is, so n=2 pays for as many steps as n=5. With n static, Python runs "
                    f"the loop while jit traces and the program holds exactly n steps. "
                    f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "static-argument")
    calls = [eqn for eqn in program.jaxpr.jaxpr.eqns if eqn.primitive.name in ("jit", "pjit")]
    if len(calls) > 1:
        checks.fail(f"newton_sqrt(x, 3) dispatches {len(calls)} compiled programs one after another: the "
                    f"Python loop runs outside jit and calls a jitted function on each step, so the loop "
                    f"is never part of a compiled program and n never reaches jit. The whole loop "
                    f"belongs inside the one jitted function, where Python unrolls it while tracing. "
                    f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "not-jitted")


def test_compiles_each_step_count_at_most_once(exercise):
    x = jnp.asarray(X)
    with checks.count_compiles() as first:
        for n in (2, 5):
            _call(exercise, x, n)
    checks.assert_compiles(first, what="newton_sqrt()", calls="the first calls with n=2 and n=5", at_most=2,
                           why="A new step count should cost at most one program")
    with checks.count_compiles() as repeats:
        for n in (2, 5, 2, 5, 2, 5):
            _call(exercise, x, n)
    checks.assert_compiles(
        repeats, what="newton_sqrt()", calls="6 more calls with step counts it has already seen",
        expected=0, warm_up=first,
        why="jit caches one program per static value of n, so a repeated n must reuse it. Something "
            "defeats the cache: jax.jit applied inside the call (to a lambda or a functools.partial) "
            "makes a new function, with an empty cache, each time. newton_sqrt itself must be jitted "
            "once, where it is defined")
