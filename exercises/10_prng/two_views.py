"""One key, one draw: reusing a key gives correlated "noise".

Contrastive learning compares two noisy views of the same input; the noise of
the two views must be independent. Two draws from one key are not two draws:
`jax.random.normal(key, shape)` twice returns the same array twice. Split the
key first (`key_a, key_b = jax.random.split(key)`) and give each draw its own.
JAX's key-reuse checker (`jax.debug_key_reuse(True)`) reports the mistake.
Docs: https://docs.jax.dev/en/latest/random-numbers.html

Task (fix-it): `two_views(key, x, sigma)` should return `x` plus two
independent draws of N(0, sigma^2) noise, yet both views come out identical.
Fix it so each view gets its own noise; an equal key must still give equal
views. Keep the signature.
"""

import jax
import jax.numpy as jnp


def two_views(key: jax.Array, x: jnp.ndarray, sigma: float = 0.1) -> tuple[jnp.ndarray, jnp.ndarray]:
    view_a = x + sigma * jax.random.normal(key, x.shape)
    view_b = x + sigma * jax.random.normal(key, x.shape)
    return view_a, view_b
