"""Gradients of a pytree: grads come back shaped like the parameters.

Model parameters are usually a pytree: nested dicts, lists and tuples of
arrays. `jax.grad(loss)(params, x, y)` differentiates with respect to the whole
first argument and returns a pytree of the same structure, one gradient array
per parameter array. `jax.tree.map` then applies an update leaf by leaf,
without naming the leaves. A quick trust-but-verify: compare the gradient with
finite differences, (L(p + h) - L(p - h)) / 2h, one entry at a time.
Docs: https://docs.jax.dev/en/latest/automatic-differentiation.html
      https://docs.jax.dev/en/latest/pytrees.html

Task (fill-in): for the linear model below, write `loss_grads(params, x, y)`
(the gradient of `loss` with respect to `params`, same structure, at the cost
of one reverse-mode pass, as jax.grad takes it over the whole tree: forward
mode, one pass per parameter entry, for some leaves or all, costs as many
passes as entries, and the checks weigh the work)
and `sgd_step(params, x, y, lr)` (new params, `p - lr * grad` for every leaf of
any params pytree: dicts, lists and tuples, however nested).
"""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    raise NotImplementedError("TODO: the gradient of loss with respect to the params pytree")


def sgd_step(params, x, y, lr):
    raise NotImplementedError("TODO: p - lr * grad for every leaf (jax.tree.map)")
