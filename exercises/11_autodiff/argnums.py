"""argnums: which argument to differentiate with respect to.

`jax.grad(g)` differentiates with respect to the FIRST argument only; the
others are held fixed. `jax.grad(g, argnums=1)` takes the partial derivative
with respect to the second, and `argnums=(0, 1)` returns a tuple with both
partials (in the order given), from a single backward pass.
Docs: https://docs.jax.dev/en/latest/automatic-differentiation.html
      https://docs.jax.dev/en/latest/_autosummary/jax.grad.html

Task (fill-in): for `g(x, y) = x**2 + y`, write `dg_dx(x, y)` (∂g/∂x = 2x),
`dg_dy(x, y)` (∂g/∂y = 1) and `dg_both(x, y)` (the tuple `(∂g/∂x, ∂g/∂y)`),
each a derivative JAX takes of `g` itself: jax.grad with argnums is the tool
this kata teaches. (The checks swap in another `g`, so a derivative worked out
by hand fails. For scalar arguments, forward mode, jax.jvp with a tangent of
1, gives the same numbers at the same cost and is accepted too; reverse mode's
edge shows with many inputs, in grad-4.)
"""

import jax


def g(x, y):
    return x**2 + y


def dg_dx(x, y):
    raise NotImplementedError("TODO: jax.grad of g with respect to x")


def dg_dy(x, y):
    raise NotImplementedError("TODO: jax.grad of g with respect to y (argnums)")


def dg_both(x, y):
    raise NotImplementedError("TODO: both partials at once, argnums=(0, 1)")
