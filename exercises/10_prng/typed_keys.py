"""Legacy raw keys and typed keys: the same bits, but only one is known to be a key.

`jax.random.PRNGKey(seed)` (legacy) returns a plain uint32 array of shape (2,);
`jax.random.key(seed)` returns a typed key: a scalar whose dtype is a key type.
Both feed jax.random the same way, but to JAX a raw key is just two numbers,
so it cannot tell a reused key from any reused array. The key-reuse checker
(`jax.debug_key_reuse`) follows values of key dtype only: it sees typed keys,
never raw ones. Older code and checkpoints hold raw keys; convert at the edge:
`jax.random.wrap_key_data(raw)` makes a typed key that continues the same random
stream, `jax.random.key_data(key)` gives back the raw uint32 data.
Docs: https://docs.jax.dev/en/latest/jax.random.html

Task (fill-in): write `to_typed(raw_keys)` and `to_raw(keys)`. Both take a
single key or an array of keys (raw: shape (..., 2) uint32; typed: shape (...)),
and drawing with a converted key must give the same numbers as the original.
"""

import jax


def to_typed(raw_keys: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: wrap the raw uint32 key data as a typed key")


def to_raw(keys: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: unwrap typed keys into their raw uint32 data")
