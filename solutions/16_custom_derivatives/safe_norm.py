"""Reference solution for custom-2: the same value, a derivative rule that is 0 at x = 0."""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@norm.defjvp
def _norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    n = norm(x)
    # At x = 0, dot(x, t) is 0 whatever the denominator: divide by 1 there, never by 0,
    # so neither the rule nor its transpose (jax.grad) ever computes 0 / 0.
    safe_n = jnp.where(n == 0, 1.0, n)
    return n, jnp.dot(x, t) / safe_n
