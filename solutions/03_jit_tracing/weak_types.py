"""Reference solution for jit-9: one dtype for lr before the jitted call."""

import jax
import jax.numpy as jnp


@jax.jit
def _apply_update(w: jnp.ndarray, grad: jnp.ndarray, lr: jnp.ndarray) -> jnp.ndarray:
    return w - lr * grad


def apply_update(w: jnp.ndarray, grad: jnp.ndarray, lr) -> jnp.ndarray:
    # Every lr, whatever Python or NumPy type, reaches jit as a strong float32
    # scalar: one cache key, one program.
    return _apply_update(w, grad, jnp.asarray(lr, dtype=jnp.float32))
