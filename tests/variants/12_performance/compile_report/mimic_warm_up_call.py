"""Mimic: runs f on the arguments first "to make sure it compiles": right report for real data, but AOT needs no data, and shape specs are rejected."""

from typing import Any, NamedTuple

import jax


class CompileReport(NamedTuple):
    hlo: str
    flops: float
    executable: Any


def compile_report(f, *args):
    jitted = jax.jit(f)
    jax.block_until_ready(jitted(*args))  # "make sure it compiles"
    compiled = jitted.lower(*args).compile()
    return CompileReport(compiled.as_text(), float(compiled.cost_analysis()["flops"]), compiled)
