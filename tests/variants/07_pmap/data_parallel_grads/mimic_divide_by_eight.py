"""Mimic: psum then a division by 8, the device count it was written on: right on 8 devices only."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    def step(params, xs, ys):
        total = lax.psum(jax.grad(loss)(params, xs, ys), "d")
        return jax.tree.map(lambda g: g / 8, total)

    return jax.pmap(step, axis_name="d", in_axes=(None, 0, 0))(params, xs, ys)
