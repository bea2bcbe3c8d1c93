"""Wrong: reports the lowered program's text (StableHLO before XLA's optimiser), not the compiled one."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str
    flops: float
    executable: Any


def compile_report(f, *args):
    lowered = jax.jit(f).lower(*args)
    compiled = lowered.compile()
    return CompileReport(lowered.as_text(), float(compiled.cost_analysis()["flops"]), compiled)
