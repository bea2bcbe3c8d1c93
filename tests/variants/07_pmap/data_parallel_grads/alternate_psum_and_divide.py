"""Right, unusually: psum the gradients and divide by the axis size, loss averaged over the pmean'd way."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    def step(params, xs, ys):
        grads = jax.grad(loss)(params, xs, ys)
        total = lax.psum(grads, "batch")
        return jax.tree.map(lambda g: g / lax.axis_size("batch"), total)

    return jax.pmap(step, axis_name="batch", in_axes=(None, 0, 0))(params, xs, ys)
