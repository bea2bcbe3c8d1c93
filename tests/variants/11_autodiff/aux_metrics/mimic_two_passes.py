"""Values right, work wrong: the model runs twice, once inside jax.grad for the gradient and again for
the metrics, where has_aux would hand the metrics back from the one pass."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    grads = jax.grad(lambda p: loss_and_metrics(p, x, y)[0])(params)
    _, metrics = loss_and_metrics(params, x, y)
    return grads, metrics
