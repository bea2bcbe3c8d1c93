"""Right, unusually: the scan walks a sequence of time steps (dt repeated), unroll=4, one step per element."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(carry, h):
        theta, omega = carry
        omega = omega - h * jnp.sin(theta)
        theta = theta + h * omega
        return (theta, omega), theta

    _, thetas = lax.scan(step, (theta0, omega0), jnp.full((steps,), dt), unroll=4)
    return thetas
