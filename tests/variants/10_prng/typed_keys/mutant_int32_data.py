"""Wrong: the raw data comes back as int32 rather than the uint32 words legacy code expects."""

import jax
import jax.numpy as jnp


def to_typed(raw_keys):
    return jax.random.wrap_key_data(raw_keys)


def to_raw(keys):
    return jax.random.key_data(keys).astype(jnp.int32)
