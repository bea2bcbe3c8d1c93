"""Reference solution for perf-5: donate the params, whose buffers the new params can reuse."""

from functools import partial

import jax


@partial(jax.jit, donate_argnums=0)
def sgd_update(params, grads, lr):
    # Each new leaf has its old leaf's shape and dtype, so XLA writes it in place.
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
