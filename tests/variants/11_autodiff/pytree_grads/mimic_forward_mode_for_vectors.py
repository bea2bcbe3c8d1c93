"""Values right, mode wrong for part of the tree: each leaf differentiated on its own, vectors (the
bias) by jax.jacfwd, one pass per entry, matrices by jax.grad."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    # vectors (biases) by forward mode, one jvp per entry; matrices by reverse mode
    leaves, treedef = jax.tree.flatten(params)
    grads = []
    for i, leaf in enumerate(leaves):
        def of_leaf(v, i=i):
            return loss(jax.tree.unflatten(treedef, leaves[:i] + [v] + leaves[i + 1:]), x, y)
        grads.append(jax.jacfwd(of_leaf)(leaf) if leaf.ndim <= 1 else jax.grad(of_leaf)(leaf))
    return jax.tree.unflatten(treedef, grads)


def sgd_step(params, x, y, lr):
    grads = loss_grads(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
