"""Branching on a traced value: lax.cond traces both branches.

Under jit a Python `if n % 2 == 0:` fails (TracerBoolConversionError): the value
is unknown while tracing. `lax.cond(pred, true_fun, false_fun, *operands)`
picks a branch at run time, so JAX traces *both* branches up front, and both
must return the same structure, shapes and dtypes: the program's output type
cannot depend on which branch runs. Mind Python's `/`: it always gives floats.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.cond.html

Task (fix-it): `collatz_step(n)` for an int32 `n` should return n / 2 for even
n and 3n + 1 for odd n, as int32, with one compile for every n. It raises a
TypeError instead. Keep the name and the jit.
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def collatz_step(n: jnp.ndarray) -> jnp.ndarray:
    return lax.cond(n % 2 == 0, lambda n: n / 2, lambda n: 3 * n + 1, n)
