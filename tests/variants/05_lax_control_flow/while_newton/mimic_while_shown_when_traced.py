"""Values right, tool wrong: called, a fori_loop always runs MAX_STEPS steps and masks out the
updates after convergence; traced (as a check reading its program traces it), it shows a jitted
while_loop instead, one that halves x until the change is small rather than taking Newton steps."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def _masked_fixed_steps(a, tol):
    def step(_, state):
        x, done, steps = state
        new = (x + a / x) / 2
        moved = jnp.abs(new - x)
        return (jnp.where(done, x, new), done | (moved <= tol), jnp.where(done, steps, steps + 1))

    root, _, steps = lax.fori_loop(0, MAX_STEPS, step, (a, jnp.bool_(False), jnp.int32(0)))
    return root, steps


@jax.jit
def _for_show(a, tol):
    def keep_going(state):
        _, change, steps = state
        return (change > tol) & (steps < MAX_STEPS)

    def update(state):
        x, _, steps = state
        return x / 2, x / 2, steps + 1

    root, _, steps = lax.while_loop(keep_going, update, (a, jnp.full_like(a, jnp.inf), jnp.int32(0)))
    return root, steps


def newton_sqrt(a, tol):
    return (_for_show if isinstance(a, jax.core.Tracer) else _masked_fixed_steps)(a, tol)
