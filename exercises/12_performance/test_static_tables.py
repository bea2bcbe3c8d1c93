"""Checks for perf-4 (static_tables)."""

import numpy as np

from grader import checks

TABLE_PRIMITIVES = {"iota", "cos", "sin", "exp"}


def _frames(n=64):
    return np.random.default_rng(2).normal(size=(4, n)).astype(np.float32)


def test_jitted_program_with_constant_tables_matches_fft(exercise):
    # The tables first (the bug), then the jit to keep, then the values.
    frames = _frames()
    program = checks.program_of(exercise.power_spectrum, frames, what="power_spectrum")
    built = sorted(TABLE_PRIMITIVES & set(program.primitives()))
    if built:
        checks.fail(
            f"power_spectrum's traced program computes its tables ({', '.join(built)} appear in "
            "the jaxpr): every call, or XLA at compile time, redoes work that depends only on the "
            "shape. The shape is static, so build the tables with numpy (np.arange, np.cos, np.sin) "
            "while tracing; NumPy arrays enter the jaxpr as constants. "
            f"See {checks.DOCS}/tracing.html", "wrong-tool")
    # No tables in the program because NumPy computes the whole spectrum on the host is no answer.
    checks.assert_not_uses(program, checks.CALLBACKS, what="power_spectrum", code="host-transfer",
                           why="A host callback hands the frames to NumPy in the middle of the program: the "
                               "spectrum is computed on the host, not by the jitted program. Only the tables, "
                               "which depend on the shape alone, belong to NumPy; the frames stay traced.")
    checks.assert_jitted(exercise.power_spectrum, frames, what="power_spectrum")
    for n in (16, 64):
        frames = _frames(n)
        out = exercise.power_spectrum(frames)
        checks.assert_shape_dtype(out, frames.shape, np.float32, what=f"power_spectrum(float32[4,{n}])")
        checks.assert_close(out, np.abs(np.fft.fft(frames.astype(np.float64))) ** 2,
                            what=f"power_spectrum(float32[4,{n}])", rtol=1e-3, atol=1e-2,
                            hint="Each row's |DFT|^2: (frames @ cos table)^2 + (frames @ sin table)^2.")
