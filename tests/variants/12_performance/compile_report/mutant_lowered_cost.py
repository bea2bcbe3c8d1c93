"""Wrong: the lowered program's cost estimate counts work that XLA's optimiser removes."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str
    flops: float
    executable: Any


def compile_report(f, *args):
    lowered = jax.jit(f).lower(*args)
    compiled = lowered.compile()
    return CompileReport(compiled.as_text(), float(lowered.cost_analysis()["flops"]), compiled)
