"""Wrong: right values and no loss leaves the device, but the eager jnp.zeros and .at[i].set with a Python index copy a host scalar to the device every step, so train breaks under transfer_guard("disallow")."""

import jax
import jax.numpy as jnp

LEARNING_RATE = 0.1


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    return w - LEARNING_RATE * grad, loss


def train(w, batches):
    losses = jnp.zeros(len(batches), dtype=w.dtype)
    for i, (x, y) in enumerate(batches):
        w, loss = sgd_step(w, x, y)
        losses = losses.at[i].set(loss)
    return w, losses
