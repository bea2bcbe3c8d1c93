"""Wrong: finite gradients from the double-where trick; the only custom_jvp is jax.nn.relu's own, applied to the result."""

import jax
import jax.numpy as jnp


def norm(x):
    squared = jnp.sum(x * x)
    safe = jnp.where(squared > 0, squared, 1.0)
    return jax.nn.relu(jnp.where(squared > 0, jnp.sqrt(safe), 0.0))
