"""Wrong: stops on the residual |x*x - a| <= tol, not on the size of the last update."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a, tol):
    def keep_going(state):
        x, steps = state
        return (jnp.abs(x * x - a) > tol) & (steps < MAX_STEPS)

    def update(state):
        x, steps = state
        return (x + a / x) / 2, steps + 1

    return lax.while_loop(keep_going, update, (a, 0))
