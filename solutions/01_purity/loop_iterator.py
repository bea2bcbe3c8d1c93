"""Reference solution for purity-4: index with the loop counter JAX provides."""

from jax import lax


def sum_of_squares(values):
    return lax.fori_loop(0, values.shape[0], lambda i, total: total + values[i] ** 2, 0.0)
