"""Mimic: each device all_gathers the whole batch and takes the whole-batch gradient itself."""
import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    def step(params, x, y):
        return jax.grad(loss)(params, lax.all_gather(x, "i", tiled=True), lax.all_gather(y, "i", tiled=True))
    return jax.pmap(step, axis_name="i", in_axes=(None, 0, 0))(params, xs, ys)
