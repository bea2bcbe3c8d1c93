"""Values right, key use wrong: carries the key's raw bits, draws with them and then splits the same
bits, so each key is used twice; as raw bits (jax.random.key_data) the run-time checker never sees it."""

import jax
import jax.numpy as jnp
from jax import lax


def random_walk(key, n_steps):
    def step(carry, _):
        position, raw = carry
        position = position + jnp.where(jax.random.bernoulli(raw), 1, -1)
        raw, _ = jax.random.split(raw)
        return (position, raw), position

    _, positions = lax.scan(step, (jnp.int32(0), jax.random.key_data(key)), None, length=n_steps)
    return positions
