"""Values right, tool wrong: the slope comes from a derivative worked out by hand, not from jax.grad."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    def month(balance, deposit):
        return balance * (1 + rate) + deposit, None

    return lax.scan(month, jnp.zeros((), deposits.dtype), deposits)[0]


@jax.jit
def rate_sensitivity(rate, deposits):
    # d/dr sum_t d_t (1 + r)^(T-1-t) = sum_t d_t (T-1-t) (1 + r)^(T-2-t)
    later = jnp.arange(deposits.shape[0] - 1, -1, -1, dtype=deposits.dtype)
    return jnp.sum(deposits * later * (1 + rate) ** jnp.maximum(later - 1, 0))
