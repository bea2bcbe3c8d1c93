"""Checks for jit-2 (trace_report)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def _args():
    return (np.ones((2, 3), np.float32), 3.0, np.arange(4, dtype=np.int64), jnp.zeros(5, bool))


def _other_args():
    return (np.zeros((3, 1), np.float16), True, 7, np.arange(2, dtype=np.uint8), np.float64(0.5))


def _combine(a, b, c, d):
    # A scalar result: the report is about what went in, not what came out.
    return jnp.sum(a) * b + jnp.sum(c) + jnp.sum(d)


def _mix(a, b, c, d, e):
    return jnp.where(b, jnp.sum(a) * c, jnp.sum(d) * e)


# Shapes and dtypes as JAX traces them: Python float -> float32, int64 -> int32.
EXPECTED = [((2, 3), np.float32), ((), np.float32), ((4,), np.int32), ((5,), np.bool_)]
# Python bool -> bool, Python int -> int32, float64 -> float32; float16 and uint8 stay as they are.
OTHER_EXPECTED = [((3, 1), np.float16), ((), np.bool_), ((), np.int32), ((2,), np.uint8), ((), np.float32)]


def _report(exercise, f, args):
    report = exercise.trace_report(f, *args)
    if not isinstance(report, (list, tuple)) or len(report) != len(args):
        checks.fail(f"trace_report(f, *args) returned {report!r}; expected a list with one entry per "
                    f"argument ({len(args)}). Report the inputs f was traced with (what the trace "
                    f"received), not what f returned.", "wrong-shape")
    return report


def _check_types(report, expected, which):
    for i, (entry, (shape, dtype)) in enumerate(zip(report, expected)):
        got = (tuple(getattr(entry, "shape", ())), np.dtype(getattr(entry, "dtype", None)))
        if got != (shape, np.dtype(dtype)):
            checks.fail(f"trace_report on {which}: argument {i} was reported as {got[1]}{list(got[0])}; JAX "
                        f"traced it as {np.dtype(dtype)}{list(shape)}. Take shapes and dtypes from the "
                        f"trace itself, not from NumPy's view of the arguments: JAX turns Python floats "
                        f"into float32, Python ints and int64 into int32 (64-bit types are off) when it "
                        f"traces. See {checks.DOCS}/tracing.html", "wrong-shape")


def test_reports_traced_shapes_and_dtypes(exercise):
    _check_types(_report(exercise, _combine, _args()), EXPECTED, "(float32 array, 3.0, int64 array, bool array)")
    _check_types(_report(exercise, _mix, _other_args()), OTHER_EXPECTED,
                 "(float16 array, True, 7, uint8 array, np.float64(0.5))")


def test_entries_hold_no_values(exercise):
    report = _report(exercise, _combine, _args())
    for i, entry in enumerate(report):
        if isinstance(entry, jax.core.Tracer):
            checks.fail(f"trace_report: entry {i} is the tracer itself ({entry!r}). A tracer is only "
                        f"valid while its trace runs; keep a description of it (its shape and dtype) "
                        f"instead. See {checks.DOCS}/errors.html#jax.errors.UnexpectedTracerError",
                        "leaked-tracer")
        if isinstance(entry, (jax.Array, np.ndarray, np.generic)):
            checks.fail(f"trace_report: entry {i} is a {type(entry).__name__}, an array with values; "
                        f"expected an abstract value with .shape and .dtype and no data (a "
                        f"ShapeDtypeStruct or ShapedArray), which is all a tracer knows.", "not-traced")
        if not hasattr(entry, "shape") or not hasattr(entry, "dtype"):
            checks.fail(f"trace_report: entry {i} is a {type(entry).__name__}; expected an abstract value "
                        f"with .shape and .dtype (a ShapeDtypeStruct or ShapedArray).", "wrong-shape")
        # An object of another kind may hold the tracer it describes (a wrapper forwarding .shape
        # and .dtype to it): only JAX's own abstract values are known to hold none.
        if type(entry) not in (jax.ShapeDtypeStruct, jax.core.ShapedArray):
            kind = "an object of a class of the answer's" if type(entry).__module__.startswith("grader.") else \
                f"a {type(entry).__name__}"
            checks.fail(f"trace_report: entry {i} is {kind}; expected JAX's own abstract "
                        f"value (a ShapeDtypeStruct or the jaxpr's in_avals, a ShapedArray): another object "
                        f"answering .shape and .dtype may keep the tracer itself, which dies with its trace. "
                        f"See {checks.DOCS}/errors.html#jax.errors.UnexpectedTracerError", "leaked-tracer")


def test_traces_f_instead_of_running_it(exercise):
    seen = []

    def spy(*args):
        seen.extend(type(a).__name__ if not isinstance(a, jax.core.Tracer) else "tracer" for a in args)
        return args[0]

    _report(exercise, spy, _args())
    if not seen:
        checks.fail("trace_report never called f: the report must describe what f received when JAX "
                    "traced it, so f has to be traced (jax.make_jaxpr, or a jitted wrapper).", "not-traced")
    concrete = sorted({kind for kind in seen if kind != "tracer"})
    if concrete:
        checks.fail(f"trace_report ran f on concrete values ({', '.join(concrete)}): the report should "
                    f"come from a trace, where f receives abstract tracers, not from running f. "
                    f"See {checks.DOCS}/tracing.html", "not-traced")
