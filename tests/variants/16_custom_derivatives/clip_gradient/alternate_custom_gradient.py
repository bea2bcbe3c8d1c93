"""Right, differently: jax.custom_gradient (built on custom_vjp) returns the value and its vjp together."""

import jax
import jax.numpy as jnp


@jax.custom_gradient
def clip_gradient(x, bound):
    return x, lambda g: (jnp.clip(g, -bound, bound), jnp.zeros_like(bound))
