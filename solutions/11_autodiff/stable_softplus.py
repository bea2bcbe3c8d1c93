"""Reference solution for grad-7: the max-shifted form, stable forward and backward."""

import jax
import jax.numpy as jnp


def softplus(x):
    # e^-|x| <= 1, so nothing overflows; d/dx is sigmoid(x) with no inf / inf.
    # (At exactly x = 0, JAX's subgradients of max and abs give 0, not 0.5;
    # jnp.logaddexp(x, 0.0) carries a custom rule that is right there too.)
    return jnp.maximum(x, 0) + jnp.log1p(jnp.exp(-jnp.abs(x)))
