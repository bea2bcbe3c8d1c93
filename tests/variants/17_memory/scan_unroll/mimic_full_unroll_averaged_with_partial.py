"""Values right, unrolling wrong: a fully unrolled scan (unroll=True) takes the steps, and an unroll=4
scan of the same step runs beside it; the two results are averaged."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(state, _):
        theta, omega = state
        omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        return (theta, omega), theta

    _, full = lax.scan(step, (theta0, omega0), None, length=steps, unroll=True)
    _, part = lax.scan(step, (theta0, omega0), None, length=steps, unroll=4)
    return 0.5 * full + 0.5 * part
