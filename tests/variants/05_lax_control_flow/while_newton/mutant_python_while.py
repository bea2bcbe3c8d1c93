"""Wrong: a and tol made static so a Python while loop can test them; the iteration runs at
trace time, so the program holds only the answer and every new (a, tol) compiles again."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

MAX_STEPS = 100


@partial(jax.jit, static_argnames=("a", "tol"))
def _newton(a, tol):
    a = np.float32(a)
    x, change, steps = a, np.inf, 0
    while change > tol and steps < MAX_STEPS:
        new = np.float32((x + a / x) / np.float32(2))
        change, x, steps = abs(new - x), new, steps + 1
    return jnp.float32(x), jnp.int32(steps)


def newton_sqrt(a, tol):
    return _newton(float(a), float(tol))
