"""Values right, mode and place wrong: jax.jacfwd of the loss run on the host inside a
jax.pure_callback, where the traced program shows one callback and none of the passes it makes."""

import jax
import jax.numpy as jnp
import numpy as np


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def loss_grads(params, x, y):
    shapes = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params)

    def on_host(p, a, b):
        return jax.tree.map(np.asarray, jax.jacfwd(loss)(p, a, b))

    return jax.pure_callback(on_host, shapes, params, x, y)


def sgd_step(params, x, y, lr):
    grads = loss_grads(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
