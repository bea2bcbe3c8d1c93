"""Wrong: jnp.where(n > 0, dot(x, t) / n, 0) in the rule: jax.jvp is fine, but jax.grad transposes 0 / 0 into NaN."""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@norm.defjvp
def _norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    n = norm(x)
    return n, jnp.where(n > 0, jnp.dot(x, t) / n, 0.0)
