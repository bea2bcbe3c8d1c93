"""Right, unusually: float(lr) makes every value a Python float, i.e. always weak float32."""

import jax


@jax.jit
def _apply_update(w, grad, lr):
    return w - lr * grad


def apply_update(w, grad, lr):
    return _apply_update(w, grad, float(lr))
