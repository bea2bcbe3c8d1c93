"""Right, unusually: jitted, with each piece named but the sum left unfactored (7 equations)."""

import jax
import jax.numpy as jnp


@jax.jit
def score(x1, x2):
    ratio = jnp.divide(x1, x2)
    e = jnp.exp(x2)
    return (ratio - e) * (jnp.sin(ratio) + ratio - e)
