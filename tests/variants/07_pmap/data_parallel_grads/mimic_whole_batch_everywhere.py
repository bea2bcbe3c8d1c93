"""Mimic: every device gets the whole batch (in_axes None, a dummy mapped argument) and computes the full gradient; the pmean changes nothing."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    def step(_, params, xs, ys):
        whole = jax.grad(loss)(params, xs.reshape(-1, xs.shape[-1]), ys.reshape(-1))
        return lax.pmean(whole, "d")

    n = jax.device_count()
    return jax.pmap(step, axis_name="d", in_axes=(0, None, None, None))(jnp.arange(n), params, xs, ys)
