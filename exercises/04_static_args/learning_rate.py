"""The other way round: a static argument that changes on every call.

jit compiles one program per distinct value of a static argument. That is
cheap for a flag with two values and ruinous for a number that changes every
step, like a learning rate from a decaying schedule: every step compiles a
new program (and the cache keeps them all). A value that only feeds
arithmetic never needs to be static; traced, a new value is new data for
the same compiled program.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html

Task (fix-it): a training loop calls `sgd_step(params, grads, learning_rate)`
with a new float learning rate every step, and each step compiles again.
Keep it jitted and returning `params - learning_rate * grads` for every leaf
of the params pytree, but compile once for all learning rates. Keep the
name and the signature.
"""

import functools

import jax


@functools.partial(jax.jit, static_argnames="learning_rate")
def sgd_step(params: dict, grads: dict, learning_rate: float) -> dict:
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
