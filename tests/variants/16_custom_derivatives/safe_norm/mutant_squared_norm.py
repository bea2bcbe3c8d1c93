"""Wrong: returns sum(x**2) to dodge the sqrt: finite gradients, but neither the value nor the gradient of a norm."""

import jax.numpy as jnp


def norm(x):
    return jnp.sum(x * x)
