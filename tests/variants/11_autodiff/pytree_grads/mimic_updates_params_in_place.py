"""Values right, purity wrong: the right update, but written back into the caller's params dict
(params.update) instead of returning new params: the caller's parameters change under it."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    return jax.grad(loss)(params, x, y)


def sgd_step(params, x, y, lr):
    params.update(jax.tree.map(lambda p, g: p - lr * g, params, loss_grads(params, x, y)))
    return params
