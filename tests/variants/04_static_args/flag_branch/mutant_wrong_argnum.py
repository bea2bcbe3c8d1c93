"""Wrong: static_argnums=0 marks the array static (unhashable) instead of the flag."""

from functools import partial

import jax


@partial(jax.jit, static_argnums=0)
def apply_sign(x, neg):
    if neg:
        return -x
    return x
