"""Reference solution for jit-8: one jitted step, made once; lr is an argument."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w: jnp.ndarray, grad: jnp.ndarray, lr: float) -> jnp.ndarray:
    return w - lr * grad


def train(w: jnp.ndarray, grads: list, lr: float) -> jnp.ndarray:
    # The same function object every step: traced and compiled on the first call only.
    for grad in grads:
        w = sgd_step(w, grad, lr)
    return w
