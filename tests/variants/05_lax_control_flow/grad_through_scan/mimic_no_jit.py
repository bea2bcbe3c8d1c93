"""Right values, without the jit the task keeps: final_balance and rate_sensitivity run op by op,
the scan traced again on every call (a derived mutant, drop-jit, that passed every check once)."""

import jax
import jax.numpy as jnp
from jax import lax


def final_balance(rate, deposits):
    def month(balance, deposit):
        return balance * (1 + rate) + deposit, None

    balance, _ = lax.scan(month, jnp.zeros((), deposits.dtype), deposits)
    return balance


def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
