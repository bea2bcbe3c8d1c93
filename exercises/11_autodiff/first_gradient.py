"""jax.grad turns a function into its derivative.

`jax.grad(f)` is a new Python function: call it where `f` would be called and
it returns df/dx there, computed exactly by automatic differentiation (no
finite differences, no symbolic algebra). `f` must return a scalar, and x must
be a float (grad of an int input is an error). `jax.value_and_grad(f)` returns
`(f(x), df/dx)` from one pass, which is what a training step needs: the loss
to log and the gradient to apply. Both compose with jit and vmap.
Docs: https://docs.jax.dev/en/latest/automatic-differentiation.html

Task (fill-in): with `f(x) = 2x² + 3x + 3`, write `df(x)` (the derivative; 15
at x = 3.0) and `f_and_df(x)` (the pair `(f(x), df(x))`; (30, 15) at 3.0),
both by differentiating `f` with JAX rather than by hand.
"""

import jax
import jax.numpy as jnp


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    raise NotImplementedError("TODO: return the derivative of f at x, with jax.grad")


def f_and_df(x):
    raise NotImplementedError("TODO: return (f(x), f'(x)) in one call, with jax.value_and_grad")
