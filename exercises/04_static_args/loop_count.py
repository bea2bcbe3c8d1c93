"""Static arguments by name: a Python loop whose length is an argument.

A Python `while i < n:` needs `n` as a real number while jit traces, so `n`
must be static. `functools.partial(jax.jit, static_argnames="n")` as a
decorator names it (`static_argnums` counts positions instead; both work).
Python runs the loop during tracing, so the compiled program holds `n` copies
of the body and each new `n` is a new program: fine for a handful of small
step counts (for many, or large, ones `lax.fori_loop` keeps one program).
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html

Task (fill-in): write `newton_sqrt(x, n)`: start from `y = x` (every element
of x is positive) and apply `y = newton_step(y, x)` exactly `n` times with a
Python loop, then return `y`. Compile it with jit, `n` static. Keep the name
and the signature `newton_sqrt(x, n)`.
"""

import jax
import jax.numpy as jnp


def newton_step(y: jnp.ndarray, x: jnp.ndarray) -> jnp.ndarray:
    """One Newton step towards sqrt(x): the mean of y and x / y."""
    return 0.5 * (y + x / y)


def newton_sqrt(x: jnp.ndarray, n: int) -> jnp.ndarray:
    raise NotImplementedError("TODO: a Python loop of n newton_steps, jitted with n static")
