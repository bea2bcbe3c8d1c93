"""Values right, tool wrong: the mean-squared-error gradient worked out by hand for w and b; jax.grad
never differentiates loss, and only those two leaves are ever updated."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    error = predict(params, x) - y
    return {"w": 2 * x.T @ error / error.size, "b": 2 * error.sum(axis=0) / error.size}


def sgd_step(params, x, y, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, loss_grads(params, x, y))
