"""Reference solution for static-6: a static argument keys the cache by value, type and how it is passed; a traced one never does."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def power(x, n):
    return x ** n


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x3, x4 = jnp.ones(3), jnp.ones(4)
    return [
        lambda: power(x3, 2),  # call 1
        lambda: power(x3, 3),  # call 2
        lambda: power(x3, 2),  # call 3
        lambda: power(x3, n=2),  # call 4
        lambda: power(x3, 2.0),  # call 5
        lambda: power(x4, 2),  # call 6
        lambda: power(x3, n=3),  # call 7
        lambda: power(x3, n=2),  # call 8
        lambda: power(x4, 3),  # call 9
    ]


@partial(jax.jit, static_argnames="n")
def power_static(x, n):
    return x ** n


@jax.jit
def power_traced(x, n):
    return x ** n


def ten_calls(fn):
    x = jnp.ones(3)
    for i in range(10):
        fn(x, i % 3)


# Your predictions, worked out:
# 1: first. 2: a new n. 4: n=2 by keyword, another key than by position. 5: the float 2.0. 6: a new shape.
# 7: n=3 by keyword. 9: x4 with n=3 by position, new together. 3 and 8 repeat earlier calls exactly.
COMPILING_CALLS = {1, 2, 4, 5, 6, 7, 9}
COMPILES_STATIC = 3  # n takes the values 0, 1 and 2: one program each
COMPILES_TRACED = 1  # n is traced: one program serves every value
