"""Checks for debug-1 (checkify_errors)."""

import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify

from grader import checks

GUIDE = f"{checks.DOCS}/debugging/checkify_guide.html"


def lookup_log(table, ids):
    rows = table[ids + 1]  # the entry after each id: ids + 1 may run past the end
    return jnp.log(rows)


def log_ratio(x, y):
    return jnp.log(x / y)


def normalise(w):
    checkify.check(jnp.all(w > 0), "weights must be positive")
    return w / jnp.sum(w)


HOST_TABLE = np.arange(1.0, 6.0, dtype=np.float32)  # 5 entries


def _arrays(*host):
    """Device arrays, as a caller would pass them (f indexes them with jnp semantics)."""
    return tuple(jnp.asarray(a) for a in host)


def _watched(body):
    """body, handed to checked() through the witness: how often it ran, and on tracers or on values, is
    recorded where the exercise cannot reach (checks.Watch); `.name` is body's name."""
    return checks.Watch(body)


def _run(exercise, f):
    run = exercise.checked(f.f)
    if not callable(run):
        checks.fail(f"checked(f) returned {type(run).__name__}; expected a function run(*args) that "
                    f"calls f, checked.", "wrong-shape")
    return run


def _call(exercise, run, *args, what):
    """run(*args): the output, or the checkify error it raised (None when it raised none)."""
    try:
        out = run(*args)
    except checkify.JaxRuntimeError as error:
        return None, error
    except ValueError as error:
        if _unfunctionalized(error):
            _explain_staged_check(exercise, what, error)
        raise
    if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], checkify.Error):
        checks.fail(f"{what} returned checkify's (err, out) pair instead of f's output: the Error is "
                    f"data, and nothing happens until someone raises it outside jit. run must raise "
                    f"it itself and return only the output. See {GUIDE}", "silent-error")
    return out, None


def _unfunctionalized(error):
    return isinstance(error, ValueError) and "not functionalized" in str(error)


def _explain_staged_check(exercise, what, error):
    """JAX refuses a check staged by jit with no checkify around it. Two answers make one: f's own
    checkify.check under a jit without checkify, and err.throw() called inside the jitted function
    (a throw is a check too). A function with no check of its own tells them apart."""
    try:
        exercise.checked(log_ratio)(*_arrays(np.array([1.0], np.float32), np.array([2.0], np.float32)))
        throws_under_jit = False
    except Exception as probe:  # noqa: BLE001 - any other error: not this one
        throws_under_jit = _unfunctionalized(probe)
    first = str(error).splitlines()[0][:120]
    if throws_under_jit:
        checks.fail(f"{what} raised ValueError ({first}): err.throw() runs inside the jitted function, "
                    f"even for an f with no checkify.check of its own. Under jit the throw is staged "
                    f"like a check with no checkify around it, and a compiled program cannot raise "
                    f"anyway: the jitted, checkified function must return the Error, and run calls "
                    f"err.throw() on it outside jit. See {GUIDE}", "wrong-tool")
    checks.fail(f"{what} raised ValueError: a checkify.check inside f was staged by jit without "
                f"checkify around it ({first}). checkify.checkify(f) is what turns f's checks into an "
                f"error value the compiled program can return. See {GUIDE}", "wrong-tool")


def _origin(error, f):
    """(kind of check, operation, whether the error points into f) for a raised checkify error."""
    cause = error.__cause__
    frames = getattr(getattr(cause, "traceback_info", None), "frames", [])
    in_f = any(frame.function_name == f.name and frame.file_name == __file__ for frame in frames)
    return type(cause).__name__, getattr(cause, "prim", None), in_f


def _expect_error(exercise, run, args, f, *, what, kind, prim, silent_why):
    out, error = _call(exercise, run, *args, what=what)
    if error is None:
        if not checks.program_of(run, *args, what=what).has("check"):
            checks.fail(f"{what} returned {checks.short(out)} and raised nothing: run never raises the "
                        f"Error that the checkified function returns beside f's output (its program holds "
                        f"no err.throw()), so whatever errors= finds is dropped. The compiled program "
                        f"cannot raise; run must, outside jit: err.throw(). See {GUIDE}", "silent-error")
        checks.fail(f"{what} returned {checks.short(out)} and raised nothing, {silent_why} See {GUIDE}",
                    "silent-error")
    got_kind, got_prim, in_f = _origin(error, f)
    if got_kind != kind or (prim and got_prim != prim):
        checks.fail(f"{what} raised {got_kind} ({str(error).strip()[:120]}); expected the {kind} that "
                    f"{prim or 'the check'} produces first.")
    if not in_f:
        checks.fail(f"{what} raised {got_kind}, but its traceback does not lead into {f.name}, the "
                    f"function the check handed to checked(): checkify must run on f itself, so the "
                    f"error names the operation and line of f that failed. See {GUIDE}", "wrong-tool")
    return error


def test_returns_f_outputs_compiled_once(exercise):
    f = _watched(lookup_log)
    run = _run(exercise, f)
    calls = [np.array(ids, np.int32) for ids in ([0, 2], [1, 3], [3, 0])]
    table, *args = _arrays(HOST_TABLE, *calls)
    results = []
    with checks.count_compiles() as first:
        results.append(_call(exercise, run, table, args[0], what="checked(lookup_log)(table, ids)"))
    with checks.count_compiles() as later:
        results += [_call(exercise, run, table, ids, what="checked(lookup_log)(table, ids)") for ids in args[1:]]
    for ids, (out, error) in zip(calls, results):
        if error is not None:
            checks.fail(f"checked(lookup_log)(table, {ids.tolist()}) raised {error!r}, but every index "
                        f"is in bounds and every log positive: no check should fail.")
        checks.assert_close(out, np.log(HOST_TABLE[ids + 1]), what=f"checked(lookup_log)(table, {ids.tolist()})")
    traces = len(f.runs())  # the witness's record: each run of lookup_log's body
    if traces > 1:
        how = ("and compiled again" if later.count else
               "and run op by op: checkify on its own does not compile anything")
        checks.fail(f"f's Python body ran {traces} times for {len(calls)} calls with the same shapes: "
                    f"the checked function was traced anew on every call {how}. One jitted, checkified "
                    f"function, built once in checked(f) and reused by run, serves every call with one "
                    f"compiled program. See {GUIDE}", "recompiles" if later.count else "not-jitted")
    checks.assert_compiles(first, what="checked(lookup_log)", calls="its first call", at_most=1,
                           doing=("gather", "log"), why="the checks must run inside one program compiled with jax.jit")
    # The work and its checks in one program: checkify's checks end in a reduce_or (whether any check
    # failed); a jit of f's work alone, with its checks run op by op beside it, holds none.
    work = [held for held in first.primitives if held is not None and {"gather", "log"} <= held]
    if not any("reduce_or" in held for held in work):
        checks.fail(f"checked(lookup_log) compiled f's work (gather, log) in a program without checkify's checks: "
                    f"none of the {len(work)} program(s) holding it also computes whether a check failed "
                    f"(checkify's error ends in a reduce_or). The checks ran op by op beside the program, or "
                    f"not at all. Jit the checkified function, jax.jit(checkify.checkify(f, errors=...)), so "
                    f"that f and its checks run in one compiled program. See {GUIDE}", "not-jitted")
    checks.assert_compiles(later, what="checked(lookup_log)", calls=f"the {len(calls) - 1} later calls with the "
                           f"same shapes", expected=0, warm_up=first,
                           why="the program compiled for the first call serves them: build the jitted, "
                               "checkified function once in checked(f), not inside run")


def test_out_of_bounds_index_raises_where_it_happened(exercise):
    f = _watched(lookup_log)
    run = _run(exercise, f)
    args = _arrays(HOST_TABLE, np.array([1, 4], np.int32))  # 4 + 1 is past the end of the 5-entry table
    error = _expect_error(exercise, run, args, f, what="checked(lookup_log)(table, [1, 4])",
                          kind="OOBError", prim="gather",
                          silent_why="although ids + 1 = 5 indexes past the end of a 5-entry table: "
                                     "the compiled gather clamped the index and read the last entry. "
                                     "checkify adds index checks only when errors= asks for them.")
    if "index 5" not in str(error):
        checks.fail(f"checked(lookup_log)(table, [1, 4]) raised {str(error).strip()[:120]!r}; expected it "
                    f"to report index 5, the one past the end.")


def test_nan_raises_naming_the_operation(exercise):
    f = _watched(log_ratio)
    run = _run(exercise, f)
    args = _arrays(np.array([1.0, -2.0], np.float32), np.array([2.0, 4.0], np.float32))
    _expect_error(exercise, run, args, f, what="checked(log_ratio)(x, y) with a negative ratio",
                  kind="NaNError", prim="log",
                  silent_why="although log of the negative ratio -0.5 is NaN: a compiled program makes "
                             "NaNs silently. checkify catches the operation that makes one only when "
                             "errors= asks for NaN checks.")


def test_fs_own_checks_raise(exercise):
    f = _watched(normalise)
    run = _run(exercise, f)
    w = _arrays(np.array([1.0, -1.0, 2.0], np.float32))
    error = _expect_error(exercise, run, w, f, what="checked(normalise)(w) with a negative weight",
                          kind="FailedCheckError", prim=None,
                          silent_why="although normalise's checkify.check(all(w > 0), ...) failed: "
                                     "choosing other checks in errors= drops f's own checks unless "
                                     "the user checks are in the set too.")
    if "weights must be positive" not in str(error):
        checks.fail(f"checked(normalise) raised {str(error).strip()[:120]!r}; expected the message of "
                    f"normalise's own check, 'weights must be positive'.")
    positive = _arrays(np.array([1.0, 3.0, 4.0], np.float32))
    out, error = _call(exercise, run, *positive, what="checked(normalise)(w)")
    if error is not None:
        checks.fail(f"checked(normalise)([1, 3, 4]) raised {error!r}; every weight is positive.")
    checks.assert_close(out, np.array([0.125, 0.375, 0.5]), what="checked(normalise)([1, 3, 4])")
