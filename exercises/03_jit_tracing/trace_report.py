"""Tracers: under jit your function sees shapes and dtypes, not values.

To build the program, jit calls your Python function with *tracers*: abstract
stand-ins that carry only a shape and a dtype (an abstract value such as
`ShapedArray(float32[3])`). Put `print(x)` in a jitted function and it shows
`JitTracer(float32[3])`, once per trace, not once per call, and never a number.
The types are JAX's own: a Python float is traced as (weak) float32 and an
int64 NumPy array as int32 (64-bit types are off by default).
Docs: https://docs.jax.dev/en/latest/tracing.html

Task (fill-in): write `trace_report(f, *args)`: trace `f` on `args` (with
`jax.jit`, `jax.make_jaxpr`, ...) and return a list with one entry per
positional argument describing what `f` received while traced: an abstract
value with `.shape` and `.dtype` and no values, `jax.ShapeDtypeStruct(t.shape,
t.dtype)` or the jaxpr's `in_avals`. Do not keep the tracers themselves (nor
anything holding them): they are only valid while the trace runs.
"""

import jax


def trace_report(f, *args) -> list:
    raise NotImplementedError("TODO: trace f on args and return one ShapeDtypeStruct/ShapedArray per argument")
