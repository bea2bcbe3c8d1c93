"""Reference solution for perf-3: lower, compile once, read everything off the executable."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str  # the optimised program, as text
    flops: float  # XLA's estimate for one call
    executable: Any  # callable on arguments of the compiled shapes


def compile_report(f, *args):
    # lower() needs only shapes and dtypes; compile() is the one XLA compile.
    compiled = jax.jit(f).lower(*args).compile()
    # The lowered program's own cost_analysis() counts work before XLA's
    # optimisations (such as reusing x1/x2); the compiled one is what runs.
    flops = float(compiled.cost_analysis()["flops"])
    return CompileReport(hlo=compiled.as_text(), flops=flops, executable=compiled)
