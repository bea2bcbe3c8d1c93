"""Wrong: a smaller program, but the rewrite flips a sign: sin(r) - gap is not sin(r) + r - exp(x2)."""

import jax.numpy as jnp


def score(x1, x2):
    ratio = x1 / x2
    gap = ratio - jnp.exp(x2)
    return gap * (jnp.sin(ratio) - gap)
