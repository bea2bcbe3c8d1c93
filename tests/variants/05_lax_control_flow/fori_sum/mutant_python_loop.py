"""Wrong: a Python loop over static bounds unrolls the body once per step (and recompiles per range)."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lower", "upper"))
def _sum(lower, upper):
    total = jnp.int32(0)
    for i in range(lower, upper):
        total = total + i
    return total


def sum_range(lower, upper):
    return _sum(int(lower), int(upper))
