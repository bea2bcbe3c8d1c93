"""Checks for perf-3 (compile_report)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

AOT = f"{checks.DOCS}/aot.html"


def _expression():
    """A fresh function object per check: JAX caches compiled programs per function."""

    def fused_expression(x1, x2):
        return (x1 / x2 - jnp.exp(x2)) * (jnp.sin(x1 / x2) + x1 / x2 - jnp.exp(x2))

    return fused_expression


def _inputs(n=128):
    return (jnp.linspace(1.0, 2.0, n, dtype=jnp.float32), jnp.linspace(0.5, 1.5, n, dtype=jnp.float32))


def _expected(x1, x2):
    x1, x2 = np.asarray(x1, np.float64), np.asarray(x2, np.float64)
    return (x1 / x2 - np.exp(x2)) * (np.sin(x1 / x2) + x1 / x2 - np.exp(x2))


def _xla_flops(*args):
    """XLA's own estimate for the optimised program (the check's independent compile)."""
    return float(jax.jit(_expression()).lower(*args).compile().cost_analysis()["flops"])


def _report(exercise, *args):
    report = exercise.compile_report(_expression(), *args)
    if not (isinstance(report, tuple) and len(report) == 3):
        checks.fail(f"compile_report returned {type(report).__name__}; expected a CompileReport "
                    f"(hlo, flops, executable).", "wrong-shape")
    return report


def _entry_computation(hlo):
    """The lines of the HLO module's ENTRY computation (the top-level program)."""
    lines = hlo.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("ENTRY")), None)
    if start is None:
        return None
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("}")), len(lines))
    return lines[start:end]


def test_hlo_is_the_optimised_fused_program(exercise):
    hlo = _report(exercise, *_inputs()).hlo
    if not isinstance(hlo, str):
        checks.fail(f"CompileReport.hlo is a {type(hlo).__name__}; expected the program as text (a str).",
                    "wrong-shape")
    entry = _entry_computation(hlo)
    if entry is None:
        checks.fail("CompileReport.hlo is not an HLO module (no ENTRY computation). "
                    "jax.jit(f).lower(...).as_text() is the StableHLO JAX hands to XLA, before any "
                    f"optimisation; what XLA will run is known only after the compile stage. See {AOT}",
                    "wrong-tool")
    body = "\n".join(entry)
    unfused = [op for op in ("exponential(", "sine(", "divide(", "multiply(") if op in body]
    if "fusion(" not in body or unfused:
        checks.fail("CompileReport.hlo runs the expression op by op "
                    f"({', '.join(op.rstrip('(') for op in unfused) or 'no fusion'} at the top level): "
                    "it is the program before XLA's optimiser. After .compile(), XLA fuses these "
                    "elementwise operations into loop fusions (one pass over memory); the report "
                    f"should show the program after that optimisation. See {AOT}", "wrong-tool")


def test_flops_match_xla_estimate(exercise):
    args = _inputs()
    flops = _report(exercise, *args).flops
    want = _xla_flops(*args)
    if not isinstance(flops, (int, float, np.floating)) or isinstance(flops, bool):
        checks.fail(f"CompileReport.flops is {flops!r}; expected a number: cost_analysis()['flops'].",
                    "wrong-shape")
    if not np.isclose(float(flops), want, rtol=1e-6):
        checks.fail(f"CompileReport.flops is {float(flops):g}; XLA estimates {want:g} flops for the "
                    "compiled program. The lowered program's cost_analysis() counts the work before "
                    "optimisation (x1/x2 three times, for example); XLA's estimate of what will "
                    f"actually run exists only after its optimiser has run. See {AOT}")


def test_accepts_shape_specs_instead_of_data(exercise):
    spec = jax.ShapeDtypeStruct((32,), jnp.float32)
    try:
        report = _report(exercise, spec, spec)
    except TypeError as error:
        checks.fail(f"compile_report(f, ShapeDtypeStruct, ShapeDtypeStruct) raised TypeError: "
                    f"{str(error).splitlines()[0][:160]}. Ahead-of-time compilation needs only shapes "
                    "and dtypes: lower() accepts jax.ShapeDtypeStruct, but calling f (or jax.jit(f)) "
                    f"on one does not work. Don't run f to compile it. See {AOT}", "wrong-tool")
    x1, x2 = _inputs(32)
    checks.assert_close(report.executable(x1, x2), _expected(x1, x2), rtol=1e-5, atol=1e-5,
                        what="the executable compiled from shape specs, called on float32[32] data")
    if not np.isclose(float(report.flops), _xla_flops(spec, spec), rtol=1e-6):
        checks.fail(f"for float32[32] inputs CompileReport.flops is {float(report.flops):g}; "
                    f"expected XLA's estimate {_xla_flops(spec, spec):g}.")


def test_compiles_once_and_executable_never_recompiles(exercise):
    x1, x2 = _inputs()
    with checks.count_compiles() as log:  # every program, whatever it is named: a wrapper of f is f compiled again
        report = _report(exercise, x1, x2)
    checks.assert_compiles(
        log, what="compile_report(f, ...)", calls="one report", expected=1,
        why="AOT compilation is explicit: nothing is compiled until .compile() is called, and the "
            "report's text, cost and executable should all come from that one Compiled object")
    short1, short2 = _inputs(64)
    with checks.count_compiles() as calls:
        out = report.executable(x1, x2)
        try:
            report.executable(short1, short2)
            recompiled = True
        except TypeError:
            recompiled = False  # a Compiled executable refuses shapes it was not built for
    checks.assert_close(out, _expected(x1, x2), rtol=1e-5, atol=1e-5,
                        what="CompileReport.executable(x1, x2)")
    if recompiled:
        checks.fail("CompileReport.executable ran on float32[64] inputs although it was compiled for "
                    "float32[128]: it is a jit-wrapped function, which traces and compiles again for "
                    "each new shape. An ahead-of-time executable is fixed to the shapes it was "
                    f"compiled for and never recompiles. See {AOT}", "recompiles")
    checks.assert_compiles(calls, what="CompileReport.executable", expected=0, warm_up=log,
                           calls="calls on the shapes it was compiled for",
                           why="the executable from .compile() is ready to run: calling it must not "
                               "compile anything")
