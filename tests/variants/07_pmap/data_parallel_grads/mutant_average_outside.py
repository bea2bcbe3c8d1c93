"""Wrong: right numbers and placement, but copies the per-device gradients to the host,
averages them there and sends the average back with a second pmap, instead of one
collective inside the first."""

import jax
import jax.numpy as jnp
import numpy as np


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    per_device = jax.pmap(jax.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    averaged = jax.tree.map(lambda g: np.broadcast_to(np.asarray(g).mean(axis=0), g.shape), per_device)
    return jax.pmap(lambda g: g)(averaged)
