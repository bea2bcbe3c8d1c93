"""Ahead-of-time compilation: see what XLA will actually run.

`jax.jit(f).lower(*args)` traces `f` for these argument shapes and returns
the program JAX hands to XLA (StableHLO, one op per jnp call). `.compile()`
runs XLA's optimiser and returns the executable. Only the compiled object
shows the optimised program (`.as_text()`: elementwise ops fused into a few
loops) and XLA's cost estimate for it (`.cost_analysis()`: a dict with
"flops", "transcendentals", "bytes accessed"). No data is needed: the args
may be `jax.ShapeDtypeStruct(shape, dtype)`. The executable is fixed to those
shapes: it never retraces or recompiles, and rejects any other shape.
Docs: https://docs.jax.dev/en/latest/aot.html

Task (fill-in): `compile_report(f, *args)` compiles `f` for `args` exactly
once and returns a `CompileReport`: the optimised HLO text, XLA's flop count
(a float) and the compiled executable. Keep `CompileReport` as it is.
"""

from typing import Any, NamedTuple


class CompileReport(NamedTuple):
    hlo: str  # the optimised program, as text
    flops: float  # XLA's estimate for one call
    executable: Any  # callable on arguments of the compiled shapes


def compile_report(f, *args):
    raise NotImplementedError("TODO: lower f for args, compile it once, and report its text, flops and executable")
