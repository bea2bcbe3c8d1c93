"""Right: static_argnums=1 marks the same argument by position; keyword calls still work."""

import jax


def newton_step(y, x):
    return 0.5 * (y + x / y)


def _newton_sqrt(x, n):
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return y


newton_sqrt = jax.jit(_newton_sqrt, static_argnums=1)
