"""Loops that produce a series: lax.scan.

`lax.scan(f, init, xs)` walks the leading axis of `xs`: `carry, y = f(carry,
x)` for each slice, and returns `(final_carry, ys)` where `ys` stacks every
`y`. The body is traced once, so the program has the same size for 10 steps or
10,000, unlike a Python loop that appends to a list and calls `jnp.stack`.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html

Task (fill-in): `ema(xs, decay)` smooths a series `xs` of shape (T,) or (T, d)
with an exponential moving average: s[0] = xs[0] and
s[t] = decay * s[t-1] + (1 - decay) * xs[t]. Return `(s[T-1], s)` from one
lax.scan, with `decay` traced (one compile for every decay). Keep the jit.
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def ema(xs: jnp.ndarray, decay: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    raise NotImplementedError("TODO: return lax.scan(step, init, xs) with step(s, x) -> (s_new, s_new)")
