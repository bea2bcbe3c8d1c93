"""Wrong: the right loop shape, but by hand: a scan of steps // 4 iterations whose body runs the step 4 times in Python, leftovers after it."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(state):
        theta, omega = state
        omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        return (theta, omega), theta

    def four_steps(state, _):
        thetas = []
        for _ in range(4):
            state, theta = step(state)
            thetas.append(theta)
        return state, jnp.stack(thetas)

    state, thetas = lax.scan(four_steps, (theta0, omega0), None, length=steps // 4)
    thetas = [thetas.reshape(-1)]
    for _ in range(steps % 4):
        state, theta = step(state)
        thetas.append(theta[None])
    return jnp.concatenate(thetas)
