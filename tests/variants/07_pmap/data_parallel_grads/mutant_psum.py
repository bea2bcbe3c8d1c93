"""Wrong: psum adds the per-device gradients, devices-times too large, instead of averaging them."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    def step(params, xs, ys):
        return lax.psum(jax.grad(loss)(params, xs, ys), "devices")

    return jax.pmap(step, axis_name="devices", in_axes=(None, 0, 0))(params, xs, ys)
