"""Predict: which static configurations hit jit's cache?

jit finds a compiled program for a static argument by hashing it and comparing
it with `==` to the keys it has. A frozen dataclass hashes and compares its
fields: two equal instances are one key. A plain class inherits identity from
`object`: every new instance is a new key, even with the same fields, and only
the very same object hits the cache. A tuple compares its items. A list
cannot be hashed at all, and jit refuses it (a ValueError) before anything
runs.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html#marking-arguments-as-static

Task (predict): without running anything, write down which of the eight
calls in `calls()` make XLA compile `apply`, and which call raises instead.
The checks run them, count the compiles and, where you were wrong, show what
JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Frozen:
    scale: float


class Plain:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnums=1)
def apply(x, config):
    scale = config[0] if isinstance(config, (tuple, list)) else config.scale
    return x * scale


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x = jnp.ones(3)
    plain = Plain(2.0)
    return [
        lambda: apply(x, Frozen(2.0)),  # call 1
        lambda: apply(x, Frozen(2.0)),  # call 2
        lambda: apply(x, Frozen(3.0)),  # call 3
        lambda: apply(x, plain),  # call 4
        lambda: apply(x, plain),  # call 5
        lambda: apply(x, Plain(2.0)),  # call 6
        lambda: apply(x, (2.0,)),  # call 7
        lambda: apply(x, [2.0]),  # call 8
    ]


# Your predictions: replace each ... with a literal (no running first!)
COMPILING_CALLS = ...  # a set of the numbers of the calls that compile apply, e.g. {1, 2}
RAISING_CALL = ...  # the number of the call that raises instead of running: a Python int, e.g. 3
