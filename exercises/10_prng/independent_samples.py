"""Stateless randomness: the key is the whole random state.

JAX has no hidden global seed. A random function takes a key and is pure: the
same key always gives the same numbers. One draw can give as many independent
numbers as you like: `jax.random.normal(key, (n,))` returns n of them. What a
key cannot do is serve two draws: a second `jax.random.normal(key)` repeats the
first. When you need separate draws (one per call, per layer, per loop step),
split the key (`jax.random.split(key, k)` gives k new keys), use each new key
once, and treat the key you split as spent.
Docs: https://docs.jax.dev/en/latest/random-numbers.html

Task (fill-in): write `n_samples(key, n)`: a float32 array of `n` independent
standard-normal samples drawn from `key`. An equal key must give the same
samples again, a different key different ones. The checks switch on JAX's
key-reuse checker (`jax.debug_key_reuse(True)`), so drawing from one key twice
fails.
"""

import jax
import jax.numpy as jnp


def n_samples(key: jax.Array, n: int) -> jnp.ndarray:
    raise NotImplementedError("TODO: draw all n standard normals from `key` (one draw can have a shape)")
