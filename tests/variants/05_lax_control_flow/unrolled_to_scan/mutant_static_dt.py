"""Wrong: dt made static with steps, so every new time step compiles a new program."""

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames=("dt", "steps"))
def _simulate(x0, v0, dt, steps):
    def step(state, _):
        x, v = state
        v = v - dt * x
        x = x + dt * v
        return (x, v), (x, v)

    _, (positions, velocities) = lax.scan(step, (x0, v0), None, length=steps)
    return positions, velocities


def simulate(x0, v0, dt, steps):
    return _simulate(x0, v0, float(dt), steps)
