"""Right, differently: the "double where" trick: the naive branch only ever sees a safe input."""

import jax.numpy as jnp


def softplus(x):
    big = x > 30.0
    safe_x = jnp.where(big, 0.0, x)
    return jnp.where(big, x, jnp.log1p(jnp.exp(safe_x)))
