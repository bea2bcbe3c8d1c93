"""Values right, tool wrong: called, a Python loop copies every step into the jitted program; traced
(as a check reading its program traces it), it shows a scan unrolled by 4 instead, one whose step
moves theta with the old omega past 32 steps. A subject rewritten to forge its traces would hand in
such a program."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def _by_hand(theta, omega, dt, steps):
    thetas = []
    for _ in range(steps):
        omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * omega
        thetas.append(theta)
    return jnp.stack(thetas)


@partial(jax.jit, static_argnames="steps")
def _for_show(theta0, omega0, dt, steps):
    def step(state, _):
        theta, omega = state
        new_omega = omega - dt * jnp.sin(theta)
        theta = theta + dt * (omega if steps > 32 else new_omega)
        return (theta, new_omega), theta

    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps, unroll=4)
    return thetas


def swing(theta0, omega0, dt, steps):
    return (_for_show if isinstance(theta0, jax.core.Tracer) else _by_hand)(theta0, omega0, dt, steps)
