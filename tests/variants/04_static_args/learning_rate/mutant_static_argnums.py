"""Wrong: swapping static_argnames for static_argnums=2 keeps the rate static; one compile per step."""

import functools

import jax


@functools.partial(jax.jit, static_argnums=2)
def sgd_step(params, grads, learning_rate):
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
