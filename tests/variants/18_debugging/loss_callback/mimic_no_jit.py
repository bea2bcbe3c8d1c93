"""Values right, idea skipped: no jit, so the Python call sees real values, but nothing is compiled (and under vmap it records a tracer)."""

import jax
import jax.numpy as jnp

LR = 0.1
LOSSES = []


def record_loss(loss):
    LOSSES.append(loss)


def _loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(_loss)(w, x, y)
    record_loss(loss)
    return w - LR * grad
