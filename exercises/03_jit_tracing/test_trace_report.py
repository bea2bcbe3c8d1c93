"""Checks for jit-2 (trace_report)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def _args():
    return (np.ones((2, 3), np.float32), 3.0, np.arange(4, dtype=np.int64), jnp.zeros(5, bool))


def _combine(a, b, c, d):
    # A scalar result: the report is about what went in, not what came out.
    return jnp.sum(a) * b + jnp.sum(c) + jnp.sum(d)


# Shapes and dtypes as JAX traces them: Python float -> float32, int64 -> int32.
EXPECTED = [((2, 3), np.float32), ((), np.float32), ((4,), np.int32), ((5,), np.bool_)]


def _report(exercise, f, args):
    report = exercise.trace_report(f, *args)
    if not isinstance(report, (list, tuple)) or len(report) != len(args):
        checks.fail(f"trace_report(f, *args) returned {report!r}; expected a list with one entry per "
                    f"argument ({len(args)}). Report the inputs f was traced with (e.g. the jaxpr's "
                    f"in_avals), not what f returned.")
    return report


def test_reports_traced_shapes_and_dtypes(exercise):
    report = _report(exercise, _combine, _args())
    for i, (entry, (shape, dtype)) in enumerate(zip(report, EXPECTED)):
        got = (tuple(getattr(entry, "shape", ())), np.dtype(getattr(entry, "dtype", None)))
        if got != (shape, np.dtype(dtype)):
            checks.fail(f"trace_report: argument {i} was reported as {got[1]}{list(got[0])}; JAX "
                        f"traced it as {np.dtype(dtype)}{list(shape)}. Take shapes and dtypes from "
                        f"the trace itself (tracer.shape/.dtype, or jax.make_jaxpr(f)(*args).in_avals): "
                        f"JAX turns Python floats into float32 and int64 into int32 when it traces. "
                        f"See {checks.DOCS}/tracing.html")


def test_entries_hold_no_values(exercise):
    report = _report(exercise, _combine, _args())
    for i, entry in enumerate(report):
        if isinstance(entry, jax.core.Tracer):
            checks.fail(f"trace_report: entry {i} is the tracer itself ({entry!r}). A tracer is only "
                        f"valid while its trace runs; keep jax.ShapeDtypeStruct(t.shape, t.dtype) "
                        f"(or t.aval) instead. See {checks.DOCS}/errors.html#jax.errors.UnexpectedTracerError")
        if isinstance(entry, (jax.Array, np.ndarray, np.generic)) or not hasattr(entry, "shape") \
                or not hasattr(entry, "dtype"):
            checks.fail(f"trace_report: entry {i} is a {type(entry).__name__}; expected an abstract "
                        f"value with .shape and .dtype and no data (jax.ShapeDtypeStruct or "
                        f"ShapedArray), which is all a tracer knows.")


def test_traces_f_instead_of_running_it(exercise):
    seen = []

    def spy(*args):
        seen.extend(type(a).__name__ if not isinstance(a, jax.core.Tracer) else "tracer" for a in args)
        return args[0]

    _report(exercise, spy, _args())
    if not seen:
        checks.fail("trace_report never called f: trace it, e.g. jax.make_jaxpr(f)(*args) or jax.jit(f).")
    concrete = sorted({kind for kind in seen if kind != "tracer"})
    if concrete:
        checks.fail(f"trace_report ran f on concrete values ({', '.join(concrete)}): the report should "
                    f"come from a trace, where f receives abstract tracers. Use jax.make_jaxpr(f)(*args), "
                    f"jax.jit(f).trace(*args) or record the tracers' shapes inside a jitted wrapper. "
                    f"See {checks.DOCS}/tracing.html")
