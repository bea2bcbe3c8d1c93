"""Right, unusually: jax.jit(f, static_argnames=...) called on a plain function instead of the
functools.partial decorator, and the scan emits the state as a stacked pair."""

import jax
import jax.numpy as jnp
from jax import lax


def _simulate(x0, v0, dt, steps):
    def step(state, _):
        x, v = state[0], state[1]
        v = v - dt * x
        x = x + dt * v
        new = jnp.stack([x, v])
        return new, new

    _, trajectory = lax.scan(step, jnp.stack([x0, v0]), None, length=steps)
    return trajectory[:, 0], trajectory[:, 1]


simulate = jax.jit(_simulate, static_argnames=("steps",))
