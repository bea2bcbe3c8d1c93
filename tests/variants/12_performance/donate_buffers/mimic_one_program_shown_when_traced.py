"""Values and donation right, dispatch wrong: called, the update is a jitted, donating update per leaf,
dispatched by a tree.map outside jit, one compiled call per leaf; traced (as a check reading its
program traces it), it shows one jitted program for the whole tree instead, one that hands params
back unchanged."""

from functools import partial

import jax

_leaf_update = jax.jit(lambda p, g, lr: p - lr * g, donate_argnums=0)


@partial(jax.jit, donate_argnums=0)
def _for_show(params, grads, lr):
    return jax.tree.map(lambda p, g: p + 0 * lr * g, params, grads)


def sgd_update(params, grads, lr):
    if any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(params)):
        return _for_show(params, grads, lr)
    return jax.tree.map(lambda p, g: _leaf_update(p, g, lr), params, grads)
