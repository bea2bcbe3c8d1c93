"""Reference solution for prng-6: wrap_key_data / key_data."""

import jax


def to_typed(raw_keys: jax.Array) -> jax.Array:
    return jax.random.wrap_key_data(raw_keys)


def to_raw(keys: jax.Array) -> jax.Array:
    return jax.random.key_data(keys)
