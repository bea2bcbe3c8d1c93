"""A derivative where autodiff's own is NaN: jax.custom_jvp.

norm(x) = sqrt(sum(x**2)) is 0 at x = 0, but the chain rule's derivative there
is 1 / (2 * sqrt(0)) * 2x = inf * 0 = NaN: one zero vector (a particle on top of
another, a zero update) turns a whole gradient into NaN. jax.custom_jvp lets you
state the derivative yourself: decorate f, then define @f.defjvp
rule(primals, tangents) -> (f(x), tangent of the output), linear in the tangent.
JAX runs the rule for jax.jvp and derives jax.grad by transposing it, so the
rule must be safe in both directions: jnp.where(n > 0, dot(x, t) / n, 0) is
fine forward, but the branch it discards still divides by zero, and its
transpose turns 0 * inf into NaN. Keep every division's denominator nonzero.
Docs: https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html

Task (fix-it): jax.grad(norm) is NaN at x = 0. Give `norm` a derivative rule with
jax.custom_jvp: the tangent dot(x, t) / norm(x), and 0 at x = 0, so jax.grad and
jax.jvp are finite everywhere, also under jit and vmap, all computed by JAX (no
callback to NumPy on the host). Keep the values norm returns and the signature;
x is a 1-D vector.
"""

import jax
import jax.numpy as jnp


def norm(x):
    return jnp.sqrt(jnp.sum(x * x))
