"""Values right, idea skipped: static_argnums=2 instead of static_argnames still keeps the rate static, a compile per step."""

import functools

import jax


@functools.partial(jax.jit, static_argnums=2)
def sgd_step(params, grads, learning_rate):
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
