"""Right, differently: value_and_grad with has_aux, then drop the loss value."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


_loss_grad = jax.jit(jax.value_and_grad(loss_and_metrics, has_aux=True))


def grads_and_metrics(params, x, y):
    (_, metrics), grads = _loss_grad(params, x, y)
    return grads, metrics
