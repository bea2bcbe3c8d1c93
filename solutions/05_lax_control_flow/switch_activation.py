"""Reference solution for lax-6: lax.switch over a tuple of branches."""

import jax
import jax.numpy as jnp
from jax import lax

ACTIVATIONS = (jax.nn.relu, jnp.tanh, jax.nn.softplus)


@jax.jit
def activate(kind: jnp.ndarray, x: jnp.ndarray) -> jnp.ndarray:
    # switch clamps kind into [0, len(ACTIVATIONS) - 1] itself.
    return lax.switch(kind, ACTIVATIONS, x)
