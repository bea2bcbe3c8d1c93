"""Wrong: unroll=8 puts eight copies of the step in each iteration, twice what the task asks."""

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

    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps, unroll=8)
    return thetas
