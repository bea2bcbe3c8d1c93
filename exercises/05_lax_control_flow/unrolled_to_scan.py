"""From a Python loop to lax.scan: keep the program small.

jit traces a Python `for` loop by running it, so the program holds one copy of
the loop body per step: 1000 steps make a program 1000 times the size, slow to
trace and slow to compile, and every new step count makes another one.
`lax.scan(step, init, None, length=n)` records the body once and loops at run
time; `ys` collects whatever each step emits.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html

Task (fix-it): `simulate(x0, v0, dt, steps)` moves a unit spring with
semi-implicit Euler and returns `(positions, velocities)`, each of shape
(steps,): the state after every step. The numbers are right, but the traced
program grows with `steps`. Rewrite the loop as one lax.scan: same results, a
program whose size does not depend on `steps`. `steps` may stay static (it
fixes the output shape); x0, v0 and dt stay traced. Keep the signature.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def simulate(x0: jnp.ndarray, v0: jnp.ndarray, dt: jnp.ndarray, steps: int):
    x, v = x0, v0
    positions, velocities = [], []
    for _ in range(steps):
        v = v - dt * x  # the spring pulls back towards 0
        x = x + dt * v
        positions.append(x)
        velocities.append(v)
    return jnp.stack(positions), jnp.stack(velocities)
