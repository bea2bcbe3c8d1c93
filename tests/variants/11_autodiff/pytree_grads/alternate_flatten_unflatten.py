"""Right, unusually: value_and_grad (value unused), then flatten both trees, update the leaves in a
list and rebuild the params' structure."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    _, grads = jax.value_and_grad(loss)(params, x, y)
    return grads


@jax.jit
def sgd_step(params, x, y, lr):
    leaves, structure = jax.tree.flatten(params)
    grad_leaves = jax.tree.leaves(loss_grads(params, x, y))
    return jax.tree.unflatten(structure, [p - lr * g for p, g in zip(leaves, grad_leaves)])
