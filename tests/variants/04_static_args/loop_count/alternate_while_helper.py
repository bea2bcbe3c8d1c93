"""Right answer, another form: a plain function calls a jitted helper whose step count is static by position, and a Python while loop counts the steps."""

from functools import partial

import jax


def newton_step(y, x):
    return 0.5 * (y + x / y)


@partial(jax.jit, static_argnums=(1,))
def _steps(x, count):
    y, done = x, 0
    while done < count:
        y = newton_step(y, x)
        done += 1
    return y


def newton_sqrt(x, n):
    return _steps(x, n)
