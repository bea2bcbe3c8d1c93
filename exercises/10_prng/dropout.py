"""Dropout with an explicit key: random, yet reproducible.

Dropout keeps each activation with probability `keep` and zeroes the rest,
with a fresh random mask every training step. In JAX the mask comes from a key
you pass in: an equal key gives the same mask (so a step can be replayed), a
new key a new mask. Kept values are divided by `keep` ("inverted dropout") so
the expected output equals the input and nothing needs rescaling at test time.
Docs: https://docs.jax.dev/en/latest/jax.random.html
      https://docs.jax.dev/en/latest/_autosummary/jax.random.bernoulli.html

Task (fill-in): write `dropout(key, x, keep)`: keep each element of `x`
independently with probability `keep` (a float in (0, 1]), scale kept elements
by 1/keep, set the others to 0. Same shape and dtype as `x`.
"""

import jax
import jax.numpy as jnp


def dropout(key: jax.Array, x: jnp.ndarray, keep: float) -> jnp.ndarray:
    raise NotImplementedError("TODO: draw a keep-mask from the key (jax.random.bernoulli) and apply it")
