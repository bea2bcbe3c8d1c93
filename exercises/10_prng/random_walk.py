"""Carry the key through a loop: each step needs a key of its own.

A loop body traced by `lax.scan` runs the same code every step. A key the body
reads from outside (closed over) is the same key every step, so every step
draws the same number. Put the key in the carry instead: each step splits it,
draws with one half and hands the other half to the next step. (Splitting all
the keys up front and scanning over them works too.)
Docs: https://docs.jax.dev/en/latest/random-numbers.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html

Task (fix-it): `random_walk(key, n_steps)` should return the positions of a
walk that starts at 0 and moves +1 or -1 with equal chance each step (an int
array of shape (n_steps,)), but it only ever walks in a straight line. Fix it,
keeping it one `lax.scan` (not a Python loop) and the signature.
"""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key: jax.Array, n_steps: int) -> jnp.ndarray:
    def step(position, _):
        move = jnp.where(jax.random.bernoulli(key), 1, -1)
        position = position + move
        return position, position

    _, positions = lax.scan(step, jnp.int32(0), None, length=n_steps)
    return positions
