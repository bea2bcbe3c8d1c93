"""Reference solution for lax-2: Newton's iteration in a lax.while_loop."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a: jnp.ndarray, tol: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    def keep_going(state):
        _, change, steps = state
        # The step cap guarantees the loop ends even if tol is never reached.
        return (change > tol) & (steps < MAX_STEPS)

    def update(state):
        x, _, steps = state
        new = (x + a / x) / 2
        return new, jnp.abs(new - x), steps + 1

    # The last change starts at infinity so the first update always runs.
    init = (a, jnp.full_like(a, jnp.inf), jnp.int32(0))
    root, _, steps = lax.while_loop(keep_going, update, init)
    return root, steps
