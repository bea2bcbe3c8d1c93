"""Right, unusually: psum the gradients and divide by the axis size, loss averaged over the pmean'd way."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def _step(params, xs, ys):
    grads = jax.grad(loss)(params, xs, ys)
    total = lax.psum(grads, "batch")
    return jax.tree.map(lambda g: g / lax.axis_size("batch"), total)


_parallel_step = jax.pmap(_step, axis_name="batch", in_axes=(None, 0, 0))


def parallel_grads(params, xs, ys):
    return _parallel_step(params, xs, ys)
