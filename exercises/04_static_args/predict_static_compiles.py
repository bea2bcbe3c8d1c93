"""Predict: which calls compile a function with a static argument?

A static argument is not traced: its Python value is baked into the program,
and jit keeps one compiled program per static value it meets, next to the
arrays' shapes and dtypes. The key is the value as Python passes it: its
hash, its equality and its type (the float 2.0 is not the int 2, though they
compare equal), and whether it came by position or by keyword. A traced
argument instead reaches one program as data, whatever its value.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html#marking-arguments-as-static

Task (predict): without running anything, write down which of the nine calls
in `calls()` make XLA compile `power`, and how many compiles each ten-call
loop below causes. The checks run them, count the compiles and, where you
were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

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


# Your predictions: replace each ... with a literal (no running first!)
COMPILING_CALLS = ...  # a set of the numbers of the calls in calls() that compile power, e.g. {1, 2}
COMPILES_STATIC = ...  # how many compiles ten_calls(power_static) causes: a Python int
COMPILES_TRACED = ...  # how many compiles ten_calls(power_traced) causes: a Python int
