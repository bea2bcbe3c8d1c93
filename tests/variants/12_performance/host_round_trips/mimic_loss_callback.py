"""Mimic: each loss goes to the host and back through jax.pure_callback: no float() to see, but still a round trip every step."""

import jax
import jax.numpy as jnp
import numpy as np

LEARNING_RATE = 0.1


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    return w - LEARNING_RATE * grad, loss


def _logged(loss):
    return jax.pure_callback(lambda v: np.asarray(v, np.float32), jax.ShapeDtypeStruct((), jnp.float32), loss)


def train(w, batches):
    losses = []
    for x, y in batches:
        w, loss = sgd_step(w, x, y)
        losses.append(jax.jit(_logged)(loss))
    return w, jnp.stack(losses)
