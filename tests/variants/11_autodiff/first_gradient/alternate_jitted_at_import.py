"""Right, unusually: the derivative functions are built (and jitted) once at import, bound to f."""

import jax


def f(x):
    return 2 * x**2 + 3 * x + 3


df = jax.jit(jax.grad(f))
f_and_df = jax.jit(jax.value_and_grad(f))
