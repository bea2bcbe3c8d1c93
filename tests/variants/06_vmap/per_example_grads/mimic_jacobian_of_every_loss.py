"""Values right, mechanism wrong: the reverse-mode Jacobian of the vector of per-example losses, one
backward pass per example through the whole batch (a batch x batch array), which the task forbids."""

import jax
import jax.numpy as jnp


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    return jax.jacrev(lambda p: jax.vmap(loss, in_axes=(None, 0, 0))(p, xs, ys))(params)
