"""Wrong: hard-codes the answers the visible checks expect (only the hidden check catches it)."""

import jax.numpy as jnp


def sum_of_squares(values):
    return jnp.where(values.shape[0] == 8, 173.0, 285.0)
