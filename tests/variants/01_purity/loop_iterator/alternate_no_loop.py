"""Right, unusually: no loop at all; a vectorised reduction is one small program too."""

import jax.numpy as jnp


def sum_of_squares(values):
    return jnp.sum(values ** 2)
