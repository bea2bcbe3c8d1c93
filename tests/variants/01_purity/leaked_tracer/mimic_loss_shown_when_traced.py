"""Values right, idea skipped: called, fit computes each loss with NumPy on the host, a forward pass
apart from the jitted step; traced (as a check reading its program traces it), it shows one jitted step
per iteration that hands back the new weights and a loss of zero, with no loss computed apart. A
subject rewritten to forge its traces would hand in such a program."""

import jax
import jax.numpy as jnp
import numpy as np

LR = 0.1


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    return w - LR * jax.grad(loss_fn)(w, x, y)


@jax.jit
def _step_for_show(w, x, y):
    return w - LR * jax.grad(loss_fn)(w, x, y), jnp.zeros((), w.dtype)


def fit(w, x, y, steps):
    losses = []
    for _ in range(steps):
        if isinstance(w, jax.core.Tracer):
            w, loss = _step_for_show(w, x, y)
        else:
            err = np.asarray(x, np.float64) @ np.asarray(w, np.float64) - np.asarray(y, np.float64)
            loss = np.float32(np.mean(err ** 2))
            w = sgd_step(w, x, y)
        losses.append(loss)
    return w, (jnp.stack(losses) if isinstance(w, jax.core.Tracer) else jnp.asarray(np.array(losses)))
