"""Wrong: the lowered program in the HLO dialect is still unoptimised: no fusions yet."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str
    flops: float
    executable: Any


def compile_report(f, *args):
    lowered = jax.jit(f).lower(*args)
    compiled = lowered.compile()
    return CompileReport(lowered.as_text(dialect="hlo"), float(compiled.cost_analysis()["flops"]), compiled)
