"""Mimic: a plain jitted update, then every params leaf deleted by hand: is_deleted() is True, but the new params got fresh memory."""

import jax


@jax.jit
def _step(params, grads, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


def sgd_update(params, grads, lr):
    new = _step(params, grads, lr)
    for leaf in jax.tree.leaves(params):
        leaf.delete()
    return new
