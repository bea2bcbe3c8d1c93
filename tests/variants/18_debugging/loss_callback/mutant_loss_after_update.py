"""Wrong: records the loss of the updated weights, not of the weights the step was given."""

import jax
import jax.numpy as jnp

LR = 0.1
LOSSES = []


def record_loss(loss):
    LOSSES.append(loss)


def _loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    grad = jax.grad(_loss)(w, x, y)
    new_w = w - LR * grad
    jax.debug.callback(record_loss, _loss(new_w, x, y))
    return new_w
