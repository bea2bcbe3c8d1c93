"""Tracing records what Python does: repeated code becomes repeated work.

jit does not read your source; it runs it. Every `x1 / x2` your Python
evaluates adds one `div` equation to the jaxpr, even if the identical
expression ran a line earlier. XLA's optimiser can often merge duplicates in
the compiled code, but the jaxpr (what grad, vmap and the compiler are handed,
and what you pay to trace) keeps them all. Computing a shared piece once, in
a Python variable, puts it in the program once.
Docs: https://docs.jax.dev/en/latest/jaxpr.html

Task (fix-it): `score` evaluates `x1 / x2` three times and `exp(x2)` twice
(print `jax.make_jaxpr(score)(x1, x2)` to see). Compute each shared piece
once so the traced program has one `div` and one `exp` and fewer equations,
with the same values. Keep the name and signature.
"""

import jax.numpy as jnp


def score(x1: jnp.ndarray, x2: jnp.ndarray) -> jnp.ndarray:
    return (x1 / x2 - jnp.exp(x2)) * (jnp.sin(x1 / x2) + x1 / x2 - jnp.exp(x2))
