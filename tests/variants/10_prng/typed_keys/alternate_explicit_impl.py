"""Right, differently: names the implementation explicitly; the default is threefry2x32 too."""

import jax


def to_typed(raw_keys):
    return jax.random.wrap_key_data(raw_keys, impl="threefry2x32")


def to_raw(keys):
    return jax.random.key_data(keys)
