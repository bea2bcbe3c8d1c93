"""Right, unusually: jax.custom_gradient (a custom_vjp underneath) returns round(x) and a backward function passing g through."""

import jax
import jax.numpy as jnp


@jax.custom_gradient
def quantize(x):
    return jnp.round(x), lambda g: (g,)
