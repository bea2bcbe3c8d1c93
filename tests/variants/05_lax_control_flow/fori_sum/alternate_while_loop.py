"""Right, unusually: a hand-written lax.while_loop carrying (i, total) instead of fori_loop."""

import jax
from jax import lax


@jax.jit
def sum_range(lower, upper):
    def cond(state):
        i, _ = state
        return i < upper

    def body(state):
        i, total = state
        return i + 1, total + i

    _, total = lax.while_loop(cond, body, (lower, 0 * lower))
    return total
