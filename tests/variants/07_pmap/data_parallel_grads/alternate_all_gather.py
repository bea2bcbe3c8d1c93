"""Right, unusually: all_gather every device's gradient, then each device averages the stack."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def _step(params, xs, ys):
    grads = jax.grad(loss)(params, xs, ys)
    return jax.tree.map(lambda g: lax.all_gather(g, "i").mean(axis=0), grads)


_parallel_step = jax.pmap(_step, axis_name="i", in_axes=(None, 0, 0))


def parallel_grads(params, xs, ys):
    return _parallel_step(params, xs, ys)
