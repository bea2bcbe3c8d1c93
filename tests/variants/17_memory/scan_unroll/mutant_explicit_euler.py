"""Wrong: unrolled by 4 as asked, but theta moves with the old omega (explicit Euler): the numbers drift."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(state, _):
        theta, omega = state
        new_omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        return (theta, new_omega), theta

    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps, unroll=4)
    return thetas
