"""Wrong: a central finite difference of final_balance in float32 approximates the slope only to ~1e-5,
far from the exact derivative jax.grad gives."""

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
    eps = 1e-3
    return (final_balance(rate + eps, deposits) - final_balance(rate - eps, deposits)) / (2 * eps)
