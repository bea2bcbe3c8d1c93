"""Values right, tool skipped: a fori_loop whose upper bound is made traced (MAX_STEPS + 0 * tol) turns
into a while_loop, but its condition only counts to MAX_STEPS; every trip runs, the late ones masked."""

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

    upper = MAX_STEPS + 0 * tol.astype(jnp.int32)
    root, _, steps = lax.fori_loop(0, upper, step, (a, jnp.bool_(False), jnp.int32(0)))
    return root, steps
