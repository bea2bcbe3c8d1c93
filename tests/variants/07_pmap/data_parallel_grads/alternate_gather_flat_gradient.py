"""Right, unusually: the gradient flattened into one vector, all_gathered and averaged on each device."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.flatten_util import ravel_pytree


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


@partial(jax.pmap, axis_name="devices", in_axes=(None, 0, 0))
def _step(params, xs, ys):
    flat, unravel = ravel_pytree(jax.grad(loss)(params, xs, ys))
    return unravel(jnp.mean(lax.all_gather(flat, "devices"), axis=0))


def parallel_grads(params, xs, ys):
    return _step(params, xs, ys)
