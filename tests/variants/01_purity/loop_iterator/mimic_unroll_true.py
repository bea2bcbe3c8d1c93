"""Values right, idea skipped: unroll=True keeps one loop equation in the jaxpr but copies the body once per element into the compiled program."""

from jax import lax


def sum_of_squares(values):
    return lax.fori_loop(0, values.shape[0], lambda i, total: total + values[i] ** 2, 0.0, unroll=True)
