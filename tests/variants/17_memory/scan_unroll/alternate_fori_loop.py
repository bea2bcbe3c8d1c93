"""Right, differently: fori_loop(..., unroll=4) writing each angle into a preallocated buffer."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=3)
def swing(theta0, omega0, dt, steps):
    def body(i, state):
        theta, omega, thetas = state
        omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        return theta, omega, thetas.at[i].set(theta)

    buffer = jnp.zeros(steps, jnp.result_type(theta0, dt))
    _, _, thetas = lax.fori_loop(0, steps, body, (theta0, omega0, buffer), unroll=4)
    return thetas
