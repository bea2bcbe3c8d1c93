"""Values right, tool wrong: the scan carries the derivative alongside the balance (forward-mode
calculus written by hand), so jax.grad never builds the backward pass."""

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
    def month(state, deposit):
        balance, slope = state
        return (balance * (1 + rate) + deposit, slope * (1 + rate) + balance), None

    zero = jnp.zeros((), deposits.dtype)
    (_, slope), _ = lax.scan(month, (zero, zero), deposits)
    return slope
