"""Right, unusually: a fori_loop whose carry holds the total and a running index it advances itself."""

import jax.numpy as jnp
from jax import lax


def sum_of_squares(values):
    def body(_, carry):
        k, total = carry
        return k + 1, total + values[k] ** 2

    _, total = lax.fori_loop(0, values.shape[0], body, (jnp.int32(0), jnp.float32(0.0)))
    return total
