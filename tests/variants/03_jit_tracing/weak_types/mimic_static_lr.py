"""Values right, idea skipped: a static lr is hashed by value, so every distinct learning rate compiles its own program."""

from functools import partial

import jax


@partial(jax.jit, static_argnames="lr")
def apply_update(w, grad, lr):
    return w - lr * grad
