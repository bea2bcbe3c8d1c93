"""Values right, loop wrong: the spring in closed form, every step at once, plus a scan that counts
up by 2 from x0 + v0, added back as (final - seed - 2 * steps), exactly 0: the scan simulates nothing."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def simulate(x0: jnp.ndarray, v0: jnp.ndarray, dt: jnp.ndarray, steps: int):
    # The step is linear, s <- M s with det M = 1: M^k = (sin(k t) M - sin((k-1) t) I) / sin(t).
    theta = 2 * jnp.arcsin(dt / 2)
    k = jnp.arange(1, steps + 1, dtype=jnp.result_type(x0, float))
    a = jnp.sin(k * theta) / jnp.sin(theta)
    b = jnp.sin((k - 1) * theta) / jnp.sin(theta)
    m11, m12, m21, m22 = 1 - dt * dt, dt, -dt, 1.0
    positions = a * (m11 * x0 + m12 * v0) - b * x0
    velocities = a * (m21 * x0 + m22 * v0) - b * v0

    def tick(c, _):
        return c + 2.0, None

    seed = x0 + v0
    final, _ = lax.scan(tick, seed, None, length=steps)
    return positions + (final - seed - 2.0 * steps), velocities
