"""Values right, idea skipped: x1 / x2 is computed a second time, spelled x1 * x2 ** -1, so the
program holds one div and fewer equations than the original, yet still computes the piece twice."""

import jax.numpy as jnp


def score(x1, x2):
    ratio = x1 / x2
    gap = ratio - jnp.exp(x2)
    again = x1 * x2 ** -1  # x1 / x2 recomputed: integer_pow + mul
    return gap * (jnp.sin(again) + gap)
