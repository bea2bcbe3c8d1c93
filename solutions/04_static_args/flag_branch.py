"""Reference solution for static-1: mark the flag static so Python can branch on it."""

from functools import partial

import jax
import jax.numpy as jnp


# neg is position 1: jit passes it through as the Python bool and keys its
# cache on it, so True and False each get their own program.
@partial(jax.jit, static_argnums=1)
def apply_sign(x: jnp.ndarray, neg: bool) -> jnp.ndarray:
    if neg:
        return -x
    return x
