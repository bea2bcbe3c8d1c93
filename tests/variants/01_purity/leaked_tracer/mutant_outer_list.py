"""Wrong: the jitted step appends its loss to a module-level list, a global written while tracing: the list holds tracers."""

import jax
import jax.numpy as jnp

LR = 0.1
LOSSES = []


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    LOSSES.append(loss)
    return w - LR * grad


def fit(w, x, y, steps):
    LOSSES.clear()
    for _ in range(steps):
        w = sgd_step(w, x, y)
    return w, jnp.stack(LOSSES)
