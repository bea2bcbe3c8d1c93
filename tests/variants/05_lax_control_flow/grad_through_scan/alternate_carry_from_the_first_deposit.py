"""Right, unusually: the carry starts at the first deposit (the balance after month 0) and the scan
walks the other months."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    # Carry seeded from the first deposit: after month 0 the balance is deposits[0].
    def month(balance, deposit):
        return balance * (1 + rate) + deposit, None

    balance, _ = lax.scan(month, deposits[0] + 0 * rate, deposits[1:])
    return balance


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance, argnums=0)(rate, deposits)
