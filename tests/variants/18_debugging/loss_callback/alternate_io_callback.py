"""Right, unusually: an unordered io_callback, which also runs on every call and once per example under vmap."""

from jax.experimental import io_callback
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
    loss, grad = jax.value_and_grad(_loss)(w, x, y)
    io_callback(record_loss, None, loss)
    return w - LR * grad
