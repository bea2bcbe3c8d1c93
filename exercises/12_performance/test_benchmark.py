"""Checks for perf-1 (benchmark)."""

import math
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from grader import checks

N_RUNS = 3
TICK = 0.25  # the checks' clock: this many "seconds" pass per call of f, whatever else happens


def _slow_function():
    """A fresh jitted function (its own compile) that runs for about 20 ms on one CPU core.

    Long enough that an unblocked call is reliably still running when the
    clock is read right after it. Each step needs the one before it and works
    on a small array, so the time is spent on one thread: the check costs a
    machine grading submissions side by side no more than its wall time.
    """

    def repeated_tanh(a):
        return lax.fori_loop(0, 8000, lambda i, m: jnp.tanh(m) * 0.5 + a * 0.5, a)

    return jax.jit(repeated_tanh)


# One program per process for the default-clock check: compiled by one request, timed in the next.
_COMPILED = _slow_function()


def _input():
    a = np.random.default_rng(0).normal(size=(64, 64))
    return jnp.asarray(a, dtype=jnp.float32)


def _watch_benchmark(exercise):
    """benchmark run beside the exercise, handed a witnessed f and a fake clock: what it did, as data.
    The record is kept where what the exercise is handed cannot reach it (checks.Timeline). f is
    fresh, and reachable only through the witness, so its one compile is its first witnessed call."""
    timeline = checks.Timeline(_slow_function(), TICK)
    returned = exercise.benchmark(timeline.f, _input(), n_runs=N_RUNS, clock=timeline.clock)
    seconds = returned[1] if isinstance(returned, tuple) and len(returned) == 2 else None
    number = isinstance(seconds, (int, float, np.floating)) and not isinstance(seconds, bool)
    return {"reads": timeline.reads(), "seconds": float(seconds) if number else None}


def _run(exercise):
    seen = checks.observe(_watch_benchmark, exercise)
    if len(seen["reads"]) < 2:
        checks.fail(f"benchmark read the clock it was given {len(seen['reads'])} time(s): it must "
                    f"read the time only through `clock()`, before and after the timed calls.", "bad-timing")
    return seen


def _benchmark_once(exercise):
    """benchmark(f, a) beside the exercise: what it returned, and whether its result was finished then."""
    f, a = _slow_function(), _input()
    out = exercise.benchmark(f, a, n_runs=N_RUNS)
    ready = isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], jax.Array) and out[0].is_ready()
    return out, ready


def test_returns_a_finished_result_and_a_time(exercise):
    out, ready = checks.observe(_benchmark_once, exercise)
    if not (isinstance(out, tuple) and len(out) == 2):
        checks.fail(f"benchmark returned {type(out).__name__}; expected a pair (result, seconds).", "wrong-shape")
    result, seconds = out
    if not isinstance(result, jax.Array):
        checks.fail(f"benchmark's result is a {type(result).__name__}; expected the jax.Array f returned.",
                    "wrong-shape")
    if not ready:
        checks.fail("benchmark returned a result that is still being computed (is_ready() is False). "
                    "A jitted call returns before its work is done (async dispatch): wait for it "
                    "before reading the clock and returning. "
                    f"See {checks.DOCS}/async_dispatch.html", "bad-timing")
    checks.assert_close(result, _slow_function()(_input()), what="benchmark(f, a)'s result", rtol=1e-5, atol=1e-5,
                        hint="Return the output of the last timed call of f.")
    if not (isinstance(seconds, (int, float, np.floating)) and math.isfinite(seconds) and seconds > 0):
        checks.fail(f"benchmark reported {seconds!r} seconds per call; expected a positive number.", "bad-timing")


def _compile_reference(exercise):
    jax.block_until_ready(_COMPILED(_input()))


def _benchmark_compiled(exercise):
    """benchmark(f, a) with the default clock, f already compiled: the seconds it reported, if a number."""
    out = exercise.benchmark(_COMPILED, _input(), n_runs=N_RUNS)
    seconds = out[1] if isinstance(out, tuple) and len(out) == 2 else None
    number = isinstance(seconds, (int, float, np.floating)) and not isinstance(seconds, bool)
    return float(seconds) if number else None


def test_default_clock_times_the_work(exercise):
    """With time.perf_counter no read can be watched, so the grader times the whole benchmark itself, from
    where the exercise's code runs nothing: an answer that waits only for a clock it was handed, or makes
    up its seconds when handed the default one, is caught here (the timed calls fit inside that time,
    and take at least a fair share of it). f is compiled by an earlier request, so the timed request runs f n_runs + 1 times and little else."""
    checks.observe(_compile_reference, exercise)
    start = time.perf_counter()
    seconds = checks.observe(_benchmark_compiled, exercise)
    elapsed = time.perf_counter() - start
    per_call = elapsed / (N_RUNS + 1)
    if seconds is not None and seconds * N_RUNS > elapsed * 1.05:
        checks.fail(f"with the default clock, benchmark(f, a, n_runs={N_RUNS}) reported {seconds * 1e3:.3g} ms per "
                    f"call, but the whole benchmark, warm-up included, took {elapsed * 1e3:.0f} ms timed from "
                    f"outside: its {N_RUNS} timed calls cannot have taken longer. Report the time the clock "
                    "measured around the timed calls, divided by n_runs.", "bad-timing")
    if seconds is not None and seconds < per_call / 4:
        checks.fail(f"with the default clock, benchmark(f, a, n_runs={N_RUNS}) reported {seconds * 1e3:.3g} ms per "
                    f"call, but timed from outside the whole benchmark took about {per_call * 1e3:.0f} ms per call "
                    "of f. A time that small measures how fast the calls were queued, not the work: a jitted call "
                    "returns immediately (async dispatch), so wait for each result before reading the clock, "
                    f"whichever clock you were handed. See {checks.DOCS}/async_dispatch.html", "bad-timing")


def test_compiles_once_across_benchmarks(exercise):
    f, a = _slow_function(), _input()
    with checks.count_compiles() as first:
        exercise.benchmark(f, a, n_runs=2)
    checks.assert_compiles(
        first, what="benchmark(f, a)", calls="one benchmark (a warm-up and 2 timed calls)", at_most=1,
        why="one warm-up call compiles f; the timed calls must reuse that program. Call f "
            "itself (it is already jitted) rather than re-wrapping it in jax.jit")
    with checks.count_compiles() as again:
        exercise.benchmark(f, a, n_runs=2)
    checks.assert_compiles(
        again, what="benchmark(f, a)", calls="a second benchmark of the same function and shapes",
        expected=0, warm_up=first,
        why="nothing about f or its inputs changed, so its compiled program should be reused. A "
            "new jax.jit(lambda ...) built on each call is a new function to JAX's cache and is "
            "compiled again: call f directly")


def test_timing_excludes_compilation(exercise):
    seen = _run(exercise)
    (_, _, compiled), (last_calls, _, _) = seen["reads"][0], seen["reads"][-1]
    if not last_calls:
        checks.fail("benchmark never called the f it was given: time calls of f itself (a new "
                    "jax.jit wrapper around f is a different program, compiled under its own name).",
                    "bad-timing")
    # f is fresh: its first call (or `.lower(...).compile()`) compiles it, before the clock starts.
    if not compiled:
        checks.fail("f was first called after the first clock read, so the timing includes tracing and "
                    "compiling f: the first call of a jitted function traces and compiles it, and that "
                    "cost ended up in the measurement. Call f once (and wait for it) before the first "
                    f"clock read. See {checks.DOCS}/async_dispatch.html", "bad-timing")


def test_timing_waits_for_every_result(exercise):
    seen = _run(exercise)
    first_calls = seen["reads"][0][0]
    timed = seen["reads"][-1][0] - first_calls
    if timed != N_RUNS:
        checks.fail(f"benchmark(f, a, n_runs={N_RUNS}) made {timed} call(s) of f between its first "
                    f"and last clock reads; expected {N_RUNS}. Time calls of f itself (not of a new "
                    f"jax.jit wrapper around it): a timing of fewer calls measures nothing.", "bad-timing")
    # Every read, the first one too: a warm-up call still running when the clock starts leaks its
    # work into the timed window.
    for calls, ready, _ in seen["reads"]:
        if not ready:
            when = ("the warm-up call" if calls <= first_calls else f"call {calls}") + " of f"
            checks.fail(f"the clock was read while {when} was still running: the time "
                        "measured how fast work was queued, not how long it took. A jitted call "
                        "returns immediately (async dispatch); wait for its result before each "
                        f"clock read, the first one included. See {checks.DOCS}/async_dispatch.html",
                        "bad-timing")
    # The seconds must come from the clock: here each call of f takes exactly TICK of its time.
    seconds = seen["seconds"]
    if seconds is not None and not np.isclose(seconds, TICK, rtol=1e-6):
        total = np.isclose(float(seconds), TICK * N_RUNS, rtol=1e-6)
        checks.fail(f"with a clock on which every call of f takes {TICK} s, benchmark(f, a, n_runs={N_RUNS}) "
                    f"reported {float(seconds):g} s per call; the mean per call is {TICK} s"
                    + (f": {float(seconds):g} s is the total of the {N_RUNS} timed calls, not the mean per call."
                       if total else ": the reported time should be worked out from the clock's "
                                     "readings around the timed calls.")
                    + f" See {checks.DOCS}/async_dispatch.html", "bad-timing")
