"""Wrong: one dtype for every call, but the wrong one: an int cast truncates 0.5 to 0."""

import jax
import jax.numpy as jnp


@jax.jit
def _apply_update(w, grad, lr):
    return w - lr * grad


def apply_update(w, grad, lr):
    return _apply_update(w, grad, jnp.asarray(lr, dtype=jnp.int32))
