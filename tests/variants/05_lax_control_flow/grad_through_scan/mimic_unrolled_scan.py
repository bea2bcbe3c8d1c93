"""Values right, loop wrong: the scan is unrolled (unroll=True), one copy of the month per deposit,
forwards and backwards."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    def month(balance, deposit):
        return balance * (1 + rate) + deposit, None

    return lax.scan(month, jnp.zeros((), deposits.dtype), deposits, unroll=True)[0]


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
