"""Right, unusually: goes through the explicit trace stage and accepts either cost_analysis() shape."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str
    flops: float
    executable: Any


def compile_report(f, *args):
    compiled = jax.jit(f).trace(*args).lower().compile()
    cost = compiled.cost_analysis()
    if isinstance(cost, (list, tuple)):  # older JAX returned one dict per program
        cost = cost[0]
    return CompileReport(hlo=compiled.as_text(), flops=cost.get("flops", 0.0), executable=compiled)
