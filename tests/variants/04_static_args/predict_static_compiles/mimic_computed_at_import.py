"""Computed, not predicted: runs the ten-call loops at import and reads jit's cache sizes."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def power_static(x, n):
    return x ** n


@jax.jit
def power_traced(x, n):
    return x ** n


for _fn in (power_static, power_traced):
    for _i in range(10):
        _fn(jnp.ones(3), _i % 3)

COMPILING_CALLS = {1, 2, 4, 5, 6, 7, 9}
COMPILES_STATIC = power_static._cache_size()
COMPILES_TRACED = power_traced._cache_size()
