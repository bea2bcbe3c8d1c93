"""Wrong: a static tolerance (read as a Python float) compiles a new program for every tol."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@partial(jax.jit, static_argnames="tol")
def _newton(a, tol):
    def keep_going(state):
        _, change, steps = state
        return (change > tol) & (steps < MAX_STEPS)

    def update(state):
        x, _, steps = state
        new = (x + a / x) / 2
        return new, jnp.abs(new - x), steps + 1

    root, _, steps = lax.while_loop(keep_going, update, (a, jnp.inf, 0))
    return root, steps


def newton_sqrt(a, tol):
    return _newton(a, float(tol))
