"""has_aux: return a loss and metrics, differentiate only the loss.

`jax.grad` needs a function returning one scalar. A real loss function also
wants to hand back things to log (accuracy, error statistics) computed in the
same forward pass. Return `(loss, aux)` and pass `has_aux=True`: JAX
differentiates the first element only and returns the second alongside the
gradient, `(grads, aux)` from jax.grad, `((loss, aux), grads)` from
jax.value_and_grad. Computing the metrics in a second call runs the model
twice; adding them to the loss changes the gradient.
Docs: https://docs.jax.dev/en/latest/automatic-differentiation.html

Task (fix-it): `grads_and_metrics(params, x, y)` should return `(grads,
metrics)`: the gradient of the loss with respect to `params` (a pytree like
`params`) and the metrics dict from `loss_and_metrics`, computed in one pass.
It fails with "Gradient only defined for scalar-output functions". Fix it;
keep `loss_and_metrics` as it is.
"""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    grads, metrics = jax.grad(loss_and_metrics)(params, x, y)
    return grads, metrics
