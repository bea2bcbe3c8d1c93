"""Wrong: sgd_step walks nested dicts by hand and treats anything else as a leaf, so a list inside
params (a list of layers) is not updated leaf by leaf; jax.tree.map walks every pytree node."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    return jax.grad(loss)(params, x, y)


def sgd_step(params, x, y, lr):
    grads = loss_grads(params, x, y)

    def walk(p, g):
        if isinstance(p, dict):
            return {k: walk(p[k], g[k]) for k in p}
        return p - lr * g

    return walk(params, grads)
