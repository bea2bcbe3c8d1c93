"""Values right, loop wrong: a lax.scan with unroll=True keeps the jaxpr small but compiles one copy
of the step per step, just as the Python loop did."""

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def simulate(x0, v0, dt, steps):
    def step(state, _):
        x, v = state
        v = v - dt * x
        x = x + dt * v
        return (x, v), (x, v)

    _, (positions, velocities) = lax.scan(step, (x0, v0), None, length=steps, unroll=True)
    return positions, velocities
