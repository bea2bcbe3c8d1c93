"""Wrong: preallocating arrays and writing with .at[i].set is still a Python loop: it unrolls."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="steps")
def simulate(x0, v0, dt, steps):
    xs, vs = jnp.zeros(steps), jnp.zeros(steps)
    x, v = x0, v0
    for i in range(steps):
        v = v - dt * x
        x = x + dt * v
        xs, vs = xs.at[i].set(x), vs.at[i].set(v)
    return xs, vs
