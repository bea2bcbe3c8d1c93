"""Wrong: adds the gradient: a step uphill that raises the loss."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    return jax.grad(loss)(params, x, y)


def sgd_step(params, x, y, lr):
    return jax.tree.map(lambda p, g: p + lr * g, params, loss_grads(params, x, y))
