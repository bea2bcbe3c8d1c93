"""Values right, idea skipped: a static residual makes the `if` legal, but every new value compiles a new program."""

from functools import partial

import jax

TAU = 0.9


@partial(jax.jit, static_argnums=0)
def _loss(residual):
    if residual > 0:
        return TAU * residual
    return (TAU - 1) * residual


def pinball_loss(residual):
    return _loss(float(residual))
