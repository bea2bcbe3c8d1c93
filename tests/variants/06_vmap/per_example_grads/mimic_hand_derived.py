"""Values right, tool wrong: the per-example gradients from a derivative worked out by hand
(2 * residual * x), so jax.grad never differentiates loss and a change to loss would not reach them."""

import jax.numpy as jnp


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    residual = xs @ params["w"] + params["b"] - ys
    return {"w": 2.0 * residual[:, None] * xs, "b": 2.0 * residual}
