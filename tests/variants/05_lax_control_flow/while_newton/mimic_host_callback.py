"""Values right, place wrong: a pure_callback runs the iteration in NumPy on the host, not in the program."""

import jax
import jax.numpy as jnp
import numpy as np

MAX_STEPS = 100


def _host_newton(a, tol):
    a, tol = np.float32(a), np.float32(tol)
    x, steps = a, 0
    while steps < MAX_STEPS:
        new = np.float32((x + a / x) / np.float32(2))
        steps, change, x = steps + 1, abs(new - x), new
        if change <= tol:
            break
    return np.float32(x), np.int32(steps)


@jax.jit
def newton_sqrt(a, tol):
    shapes = (jax.ShapeDtypeStruct((), jnp.float32), jax.ShapeDtypeStruct((), jnp.int32))
    return jax.pure_callback(_host_newton, shapes, a, tol)
