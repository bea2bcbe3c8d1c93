"""Reference solution for memory-4: a rolled loop with four steps per iteration."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(state, _):
        theta, omega = state
        omega = omega - dt * jnp.sin(theta)  # semi-implicit Euler: velocity first
        theta = theta + dt * omega
        return (theta, omega), theta

    # One loop of steps // 4 iterations, each running the step 4 times; leftovers after it.
    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps, unroll=4)
    return thetas
