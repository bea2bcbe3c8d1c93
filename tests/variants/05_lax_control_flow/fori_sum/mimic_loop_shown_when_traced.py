"""Values right, tool wrong: called, Gauss's closed form gets the sums; traced (as a check reading
its program traces it), it shows a jitted fori_loop instead, one that counts the steps rather than
adding them up. A subject rewritten to forge its traces would hand in such a program."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _closed_form(lower, upper):
    count = jnp.maximum(upper - lower, 0)
    return count * (lower + upper - 1) // 2


@jax.jit
def _for_show(lower, upper):
    return lax.fori_loop(lower, upper, lambda i, total: total + 1, jnp.zeros((), jnp.int32))


def sum_range(lower, upper):
    return (_for_show if isinstance(lower, jax.core.Tracer) else _closed_form)(lower, upper)
