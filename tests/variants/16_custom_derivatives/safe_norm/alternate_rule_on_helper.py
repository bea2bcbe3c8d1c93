"""Right, unusually: the custom_jvp rule sits on a private helper that norm calls, and it differentiates a safe formula with jax.jvp."""

import jax
import jax.numpy as jnp


def _safe_norm(x):
    squared = jnp.sum(x * x)
    return jnp.where(squared > 0, jnp.sqrt(jnp.where(squared > 0, squared, 1.0)), 0.0)


@jax.custom_jvp
def _norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@_norm.defjvp
def _norm_rule(primals, tangents):
    return jax.jvp(_safe_norm, primals, tangents)


def norm(x):
    return _norm(x)
