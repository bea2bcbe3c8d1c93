"""Values right, key kind wrong: to_typed hands the raw uint32 data back unchanged; it draws the same
numbers, but it is not a typed key, so the reuse checker cannot see it (to_raw is right)."""

import jax
import jax.numpy as jnp


def to_typed(raw_keys):
    return jnp.asarray(raw_keys, dtype=jnp.uint32)


def to_raw(keys):
    return jax.random.key_data(keys)
