"""Wrong: one dtype for lr, but bfloat16: a single compile, yet lr keeps only about 3 digits (0.1 becomes 0.10009765625)."""

import jax
import jax.numpy as jnp


@jax.jit
def _apply_update(w, grad, lr):
    return w - lr * grad


def apply_update(w, grad, lr):
    return _apply_update(w, grad, jnp.asarray(lr, dtype=jnp.bfloat16))
