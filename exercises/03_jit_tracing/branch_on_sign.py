"""Python `if` on a traced value: branch inside the program instead.

jit traces a function once for *all* values of its arguments, so while
tracing, `residual > 0` is an abstract boolean with no truth value and Python's
`if` cannot pick a side: JAX raises TracerBoolConversionError. Put the choice
into the program so it is made when the program runs, for each value:
`jnp.where(cond, a, b)` computes both sides and selects; `lax.cond(cond,
true_fn, false_fn, *operands)` runs one branch function (scalar condition).
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html

Task (fix-it): `pinball_loss(residual)` (the quantile loss, scalar input)
fails under jit. Make it trace and return TAU * r for r > 0 and
(TAU - 1) * r otherwise, with one compiled program for residuals of both
signs (marking `residual` static would recompile for every new value).
"""

import jax
import jax.numpy as jnp

TAU = 0.9


@jax.jit
def pinball_loss(residual: jnp.ndarray) -> jnp.ndarray:
    if residual > 0:
        return TAU * residual
    return (TAU - 1) * residual
