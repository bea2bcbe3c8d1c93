"""Reference solution for jit-4: name each shared piece once."""

import jax.numpy as jnp


def score(x1: jnp.ndarray, x2: jnp.ndarray) -> jnp.ndarray:
    ratio = x1 / x2
    gap = ratio - jnp.exp(x2)
    # sin(r) + r - e == sin(r) + gap: the difference is shared too.
    return gap * (jnp.sin(ratio) + gap)
