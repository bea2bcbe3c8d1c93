"""Wrong: a Python loop in place of the scan: every step is copied into the program, like unroll=True."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    theta, omega, thetas = theta0, omega0, []
    for _ in range(steps):
        omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        thetas.append(theta)
    return jnp.stack(thetas)
