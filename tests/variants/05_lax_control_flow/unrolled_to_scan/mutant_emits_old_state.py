"""Wrong: each step emits the state it started from, so the trajectory begins at (x0, v0)."""

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def simulate(x0, v0, dt, steps):
    def step(state, _):
        x, v = state
        v_new = v - dt * x
        return (x + dt * v_new, v_new), (x, v)

    _, (positions, velocities) = lax.scan(step, (x0, v0), None, length=steps)
    return positions, velocities
