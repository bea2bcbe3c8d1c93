"""Values right, compiles wrong: a static kind, clamped in Python, indexes the tuple, so every new kind
compiles a new program."""

from functools import partial

import jax
import jax.numpy as jnp

ACTIVATIONS = (jax.nn.relu, jnp.tanh, jax.nn.softplus)


@partial(jax.jit, static_argnums=0)
def _activate(kind, x):
    return ACTIVATIONS[min(max(kind, 0), len(ACTIVATIONS) - 1)](x)


def activate(kind, x):
    return _activate(int(kind), x)
