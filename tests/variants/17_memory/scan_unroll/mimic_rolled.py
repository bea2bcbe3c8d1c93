"""Values right and a rolled loop, but unroll=1: one step per iteration, not the partial unroll asked for."""

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

    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps)
    return thetas
