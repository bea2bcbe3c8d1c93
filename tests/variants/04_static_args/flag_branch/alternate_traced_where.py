"""Right, differently: keep the flag traced and select with jnp.where; one program serves both."""

import jax
import jax.numpy as jnp


@jax.jit
def apply_sign(x, neg):
    return jnp.where(neg, -x, x)
