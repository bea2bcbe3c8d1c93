"""Values right, tool wrong: a lax.fori_loop when handed a tracer; handed arrays, Python's loop over the
elements, one dispatched operation at a time (no NumPy copy, nothing read back to the host until the end)."""

import jax
from jax import lax


def sum_of_squares(values):
    if isinstance(values, jax.core.Tracer):
        return lax.fori_loop(0, values.shape[0], lambda i, total: total + values[i] ** 2, 0.0)
    total = 0.0
    for i in range(values.shape[0]):   # Python's loop, one dispatched step per element
        total = total + values[i] ** 2
    return total
