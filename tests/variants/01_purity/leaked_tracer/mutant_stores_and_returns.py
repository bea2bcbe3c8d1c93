"""Wrong: the step returns its loss but still writes it to the global as well, so a tracer leaks into `last_loss`."""

import jax
import jax.numpy as jnp

LR = 0.1
last_loss = None


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    global last_loss
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    last_loss = loss
    return w - LR * grad, loss


def fit(w, x, y, steps):
    losses = []
    for _ in range(steps):
        w, loss = sgd_step(w, x, y)
        losses.append(loss)
    return w, jnp.stack(losses)
