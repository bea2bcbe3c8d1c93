"""Checks for perf-4 (static_tables)."""

import jax
import numpy as np

from grader import checks

TABLE_PRIMITIVES = {"iota", "cos", "sin", "exp"}


def _frames(n=64):
    return np.random.default_rng(2).normal(size=(4, n)).astype(np.float32)


def _spectrum(frames):
    return np.abs(np.fft.fft(frames.astype(np.float64))) ** 2


def _no_tables_sent_per_call(exercise):
    """Once compiled, a call with the frames on the device copies nothing from the host: tables made
    by NumPy on every call and handed to a jitted helper as arguments cross over each time."""
    frames = jax.device_put(_frames(32))
    jax.block_until_ready(exercise.power_spectrum(frames))  # compiles; constants may be uploaded now
    try:
        with jax.transfer_guard("disallow"):
            jax.block_until_ready(exercise.power_spectrum(frames))
    except Exception as error:  # JAX reports a blocked transfer as a runtime error
        if "Disallowed" not in str(error):
            raise
        blocked = str(error).split(", dst_sharding")[0].replace("INVALID_ARGUMENT: ", "")
        why = ("a table: the tables are built by NumPy outside the compiled program and passed in as "
               "arguments, so they are rebuilt and sent to the device each call. Build them inside the "
               "jitted function, while it traces: there they become constants of the compiled program"
               if "[32,32]" in blocked else
               "work done around the compiled program takes a host value in each call. Keep all of it "
               "inside the jitted function")
        checks.fail(f"power_spectrum copies data from the host on every call ({blocked}), {why}. "
                    f"See {checks.DOCS}/transfer_guard.html", "host-transfer")


def test_jitted_program_with_constant_tables_matches_fft(exercise):
    # The tables first (the bug), then the jit to keep, then the values.
    frames = _frames()
    spectrum = _spectrum(frames)
    program = checks.program_of(exercise.power_spectrum, frames, what="power_spectrum")
    checks.assert_computes(program, spectrum, what="power_spectrum(float32[4,64])", rtol=1e-3, atol=1e-2)
    built = sorted(TABLE_PRIMITIVES & set(program.primitives()))
    if built:
        checks.fail(
            f"power_spectrum's traced program computes its tables ({', '.join(built)} appear in "
            "the jaxpr): every call, or XLA at compile time, redoes work that depends only on the "
            "shape. The shape is static, so build the tables with numpy (np.arange, np.cos, np.sin) "
            "while tracing; NumPy arrays enter the jaxpr as constants. "
            f"See {checks.DOCS}/tracing.html", "wrong-tool")
    # Nor built from the shape by other primitives (a running sum of ones, a complex exponential):
    # whatever builds a table-sized array from nothing but smaller constants builds the table.
    grown = sorted(set(program.input_free_work(min_size=64 * 64 // 2)))
    if grown:
        checks.fail(
            f"power_spectrum's traced program builds table-sized arrays that no frame feeds ({', '.join(grown)} "
            "on values made from the shape alone): the tables are still computed in the program, by other "
            "primitives than trig. Build them with numpy (np.arange, np.cos, np.sin) while tracing, so "
            f"they enter the jaxpr as constants. See {checks.DOCS}/tracing.html", "wrong-tool")
    checks.assert_not_uses(program, {"fft"}, what="power_spectrum", code="wrong-tool",
                           why="The task keeps the spectrum as the frames times the cosine and sine tables, "
                               "the tables held as constants; an FFT is another way to the same numbers "
                               "and skips them.")
    # The tables held, as the task asks: table-sized constants the spectrum follows (nudged where the
    # check runs, they move it). An FFT holds none; a table kept beside another computation, unused.
    held = program.follows_constants(lambda c: c.size >= 64 * 64 // 2 and np.issubdtype(c.dtype, np.inexact))
    if not held:
        checks.fail(
            "power_spectrum's traced program " + ("holds no table as a constant" if held is None else
                                                  "holds table-sized constants, but its spectrum does not "
                                                  "follow them (nudged, they leave the result unchanged)") +
            ": the spectrum comes from elsewhere (an FFT, say), not from the frames times the cosine and "
            "sine tables. The task keeps that product and asks for the tables as constants: build them "
            f"with numpy while tracing. See {checks.DOCS}/tracing.html", "wrong-tool")
    # No tables in the program because NumPy computes the whole spectrum on the host is no answer.
    checks.assert_not_uses(program, checks.CALLBACKS, what="power_spectrum", code="host-transfer",
                           why="A host callback hands the frames to NumPy in the middle of the program: the "
                               "spectrum is computed on the host, not by the jitted program. Only the tables, "
                               "which depend on the shape alone, belong to NumPy; the frames stay traced.")
    checks.assert_jitted(exercise.power_spectrum, frames, what="power_spectrum", expected=spectrum, rtol=1e-3,
                         atol=1e-2)
    _no_tables_sent_per_call(exercise)
    for n in (16, 64):
        frames = _frames(n)
        out = exercise.power_spectrum(frames)
        checks.assert_shape_dtype(out, frames.shape, np.float32, what=f"power_spectrum(float32[4,{n}])")
        checks.assert_close(out, _spectrum(frames),
                            what=f"power_spectrum(float32[4,{n}])", rtol=1e-3, atol=1e-2,
                            hint="Each row's |DFT|^2: (frames @ cos table)^2 + (frames @ sin table)^2.")
