"""Wrong: converts the first key of a batch and gives every key in the batch its bits, both ways:
right for a single key, the same stream repeated for a batch."""

import jax
import jax.numpy as jnp


def to_typed(raw_keys: jax.Array) -> jax.Array:
    raw_keys = jnp.asarray(raw_keys)
    first = raw_keys.reshape(-1, 2)[0]
    # every key in a batch gets the first key's bits
    return jax.random.wrap_key_data(jnp.broadcast_to(first, raw_keys.shape))


def to_raw(keys: jax.Array) -> jax.Array:
    first = jax.random.key_data(keys.reshape(-1)[0])
    return jnp.broadcast_to(first, keys.shape + (2,))
