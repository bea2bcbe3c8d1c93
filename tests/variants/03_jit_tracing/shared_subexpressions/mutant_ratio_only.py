"""Wrong: shares x1 / x2 but still traces exp(x2) twice."""

import jax.numpy as jnp


def score(x1, x2):
    ratio = x1 / x2
    return (ratio - jnp.exp(x2)) * (jnp.sin(ratio) + ratio - jnp.exp(x2))
