"""Values right, transfers wrong: logs each step's loss with np.asarray(loss).item(), only when train is
called with arrays (under jit it tells a tracer apart and skips the log). NumPy reads a one-device
array's buffer directly, past the path float() and print take; it is a device-to-host copy that waits
for the step all the same. The losses returned stay jax.Arrays, so the transfer guard sees nothing."""

import jax
import jax.numpy as jnp
import numpy as np

LEARNING_RATE = 0.1
training_log = []


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    return w - LEARNING_RATE * grad, loss


def train(w, batches):
    losses = []
    for x, y in batches:
        w, loss = sgd_step(w, x, y)
        if not isinstance(loss, jax.core.Tracer):
            training_log.append(np.asarray(loss).item())  # device-to-host, every step
        losses.append(loss)
    return w, jnp.stack(losses)
