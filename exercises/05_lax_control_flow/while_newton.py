"""Loops that stop on a condition: lax.while_loop.

When the number of steps depends on the data (iterate until converged), the
loop must run inside the compiled program. `lax.while_loop(cond_fun, body_fun,
init)` repeats `state = body_fun(state)` while `cond_fun(state)` is True; state
is any pytree whose shapes and dtypes never change. A Python `while` on a traced
value raises TracerBoolConversionError instead. A condition that never turns
False hangs inside XLA, where nothing can interrupt it: cap the steps.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.while_loop.html

Task (fill-in): `newton_sqrt(a, tol)` for a > 0 returns `(root, steps)`. Start
at x = a, repeat x = (x + a / x) / 2, and stop right after the first update
that moved x by at most tol (|new - old| <= tol), or after MAX_STEPS updates.
`steps` counts the updates made. Use lax.while_loop with `a` and `tol` traced:
one compile must serve every value and tolerance. Keep the name and the jit.
"""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a: jnp.ndarray, tol: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    raise NotImplementedError("TODO: carry (x, last change, steps) through lax.while_loop")
