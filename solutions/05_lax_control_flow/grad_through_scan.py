"""Reference solution for lax-8: a scan, and jax.grad through it."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    def month(balance, deposit):
        return balance * (1 + rate) + deposit, None

    balance, _ = lax.scan(month, jnp.zeros((), deposits.dtype), deposits)
    return balance


@jax.jit
def rate_sensitivity(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    # Reverse mode through the scan: the backward pass is another scan.
    return jax.grad(final_balance)(rate, deposits)
