"""Right, unusually: jax.nn.standardize over the rows, under jit."""

import jax


@jax.jit
def standardize(x):
    return jax.nn.standardize(x, axis=0, epsilon=0.0)
