"""Right, at about the cost asked: jax.grad of the loss with respect to each leaf on its own, one
reverse-mode pass per leaf (two here), rebuilt into the params' structure."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    # one reverse pass per leaf: the gradient of loss with respect to each leaf on its own
    leaves, treedef = jax.tree.flatten(params)
    grads = []
    for i, leaf in enumerate(leaves):
        def of_leaf(v, i=i):
            return loss(jax.tree.unflatten(treedef, leaves[:i] + [v] + leaves[i + 1:]), x, y)
        grads.append(jax.grad(of_leaf)(leaf))
    return jax.tree.unflatten(treedef, grads)


def sgd_step(params, x, y, lr):
    grads = loss_grads(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
