"""Wrong: the branches are swapped: positive residuals get TAU - 1 and negative ones TAU."""

import jax
import jax.numpy as jnp

TAU = 0.9


@jax.jit
def pinball_loss(residual):
    return jnp.where(residual > 0, (TAU - 1) * residual, TAU * residual)
