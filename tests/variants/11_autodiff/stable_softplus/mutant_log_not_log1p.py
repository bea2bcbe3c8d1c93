"""Wrong: the shifted form with log(1 + e^-|x|) instead of log1p: no overflow, but far left 1 + e^x
rounds to 1 and softplus comes out 0 instead of about e^x."""

import jax.numpy as jnp


def softplus(x):
    return jnp.maximum(x, 0) + jnp.log(1 + jnp.exp(-jnp.abs(x)))
