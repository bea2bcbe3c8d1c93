"""Values right, tool wrong: always runs MAX_STEPS steps of a fori_loop (a scan) and masks out the
updates after convergence, so the data never decides how long the loop runs."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a, tol):
    def step(_, state):
        x, done, steps = state
        new = (x + a / x) / 2
        moved = jnp.abs(new - x)
        return (jnp.where(done, x, new), done | (moved <= tol), jnp.where(done, steps, steps + 1))

    root, _, steps = lax.fori_loop(0, MAX_STEPS, step, (a, jnp.bool_(False), jnp.int32(0)))
    return root, steps
