"""Loops under jit: lax.fori_loop keeps a loop one loop.

A Python `for i in range(n)` runs while jit traces: it needs a concrete `n` (a
traced one raises TracerIntegerConversionError) and it copies the body into the
program once per step. `lax.fori_loop(lower, upper, body, init)` records the
body once; `body(i, carry)` returns the next carry. Its bounds may be traced
values, so one compiled program serves every trip count.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html

Task (fill-in): make `sum_range(lower, upper)` return the sum of the integers
i with lower <= i < upper (0 when upper <= lower), exactly, as an integer,
computed with lax.fori_loop. Both bounds stay traced arguments: one compile must serve every
range. Keep the name, the signature and the jit.
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower: jnp.ndarray, upper: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: return lax.fori_loop(lower, upper, body, init) summing i")
