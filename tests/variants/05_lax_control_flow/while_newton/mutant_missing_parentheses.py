"""Wrong: `x + a / x / 2` (missing parentheses) is not the average of x and a / x; the iterate
drifts upwards and only the step cap stops the loop."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a, tol):
    def keep_going(state):
        _, change, steps = state
        return (change > tol) & (steps < MAX_STEPS)

    def update(state):
        x, _, steps = state
        new = x + a / x / 2
        return new, jnp.abs(new - x), steps + 1

    root, _, steps = lax.while_loop(keep_going, update, (a, jnp.inf, 0))
    return root, steps
