"""Values right, idea skipped: static arguments make Python's print see real values, at the price of one compile per value."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0, 1))
def _step(x, velocity):
    new_x = x + 0.9 * velocity
    print("position:", new_x)
    return jnp.float32(new_x)


def damped_step(x, velocity):
    return _step(float(x), float(velocity))
