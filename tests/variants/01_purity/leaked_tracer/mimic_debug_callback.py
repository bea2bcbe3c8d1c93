"""Wrong: right losses, but each one is sent to the host by a callback and collected in a Python list instead of being returned."""

import jax
import jax.numpy as jnp
import numpy as np

LR = 0.1
LOG = []


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    jax.debug.callback(lambda value: LOG.append(np.asarray(value)), loss)
    return w - LR * grad


def fit(w, x, y, steps):
    LOG.clear()
    for _ in range(steps):
        w = sgd_step(w, x, y)
    jax.effects_barrier()
    return w, jnp.asarray(np.array(LOG, np.float32))
