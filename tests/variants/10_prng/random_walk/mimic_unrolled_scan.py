"""Values right, loop wrong: the key rides in the carry as it should, but unroll= copies the step
into the program (here twice over; unroll=True would copy it once per step)."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(carry, _):
        position, key = carry
        key, subkey = jax.random.split(key)
        position = position + jnp.where(jax.random.bernoulli(subkey), 1, -1)
        return (position, key), position

    _, positions = lax.scan(step, (jnp.int32(0), key), None, length=n_steps, unroll=2)
    return positions
