"""Wrong: seeds a new key from the data's last word; matches PRNGKey(seed) keys only, not split ones."""

import jax


def to_typed(raw_keys):
    return jax.random.key(raw_keys[..., 1])


def to_raw(keys):
    return jax.random.key_data(keys)
