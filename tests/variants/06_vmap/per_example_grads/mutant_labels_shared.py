"""Wrong: in_axes=(None, 0, None) hands every example the whole label vector, so the loss is not per example."""

import jax
import jax.numpy as jnp


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    return jax.vmap(jax.grad(lambda p, x, y: jnp.mean(loss(p, x, y))), in_axes=(None, 0, None))(params, xs, ys)
