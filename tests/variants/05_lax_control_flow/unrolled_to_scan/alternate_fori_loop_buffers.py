"""Right, unusually: fori_loop writing each state into preallocated buffers with .at[i].set."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=3)
def simulate(x0, v0, dt, steps):
    def body(i, state):
        x, v, xs, vs = state
        v = v - dt * x
        x = x + dt * v
        return x, v, xs.at[i].set(x), vs.at[i].set(v)

    empty = jnp.zeros(steps, jnp.result_type(x0, v0, dt))
    _, _, xs, vs = lax.fori_loop(0, steps, body, (x0, v0, empty, empty))
    return xs, vs
