"""Wrong: a pure_callback whose result the step uses, so it stays in the program and records every call under jit; but a pure callback is for pure functions, and without vmap_method it cannot be vmapped."""

import jax
import jax.numpy as jnp

LR = 0.1
LOSSES = []


def record_loss(loss):
    LOSSES.append(loss)


def _loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def _record(loss):
    record_loss(loss)
    return loss


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(_loss)(w, x, y)
    loss = jax.pure_callback(_record, jax.ShapeDtypeStruct((), jnp.float32), loss)
    return w - LR * grad + 0 * loss
