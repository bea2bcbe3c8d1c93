"""Stateless randomness: the key is the whole random state.

JAX has no hidden global seed. A random function takes a key and is pure: the
same key always gives the same number. So drawing twice from one key does not
give two random numbers, it gives one number twice. For several independent
draws, split the key (`jax.random.split(key, n)` gives n new keys) and use
each new key once; once a key is split, it is spent: do not draw from it too.
Docs: https://docs.jax.dev/en/latest/random-numbers.html

Task (fill-in): write `n_samples(key, n)`: a float32 array of `n` independent
standard-normal samples. An equal key must give the same samples again, a
different key different ones. The checks switch on JAX's key-reuse checker
(`jax.debug_key_reuse(True)`), so drawing from one key twice fails.
"""

import jax
import jax.numpy as jnp


def n_samples(key: jax.Array, n: int) -> jnp.ndarray:
    raise NotImplementedError("TODO: split `key` into n keys and draw one standard normal with each")
