"""Right: functools.partial(jax.jit, static_argnames="neg") as a decorator; positional calls map to the name."""

import functools

import jax


@functools.partial(jax.jit, static_argnames="neg")
def apply_sign(x, neg):
    if neg:
        return -x
    return x
