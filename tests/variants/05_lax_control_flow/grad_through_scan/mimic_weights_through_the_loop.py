"""Values right, loop wrong: the balances from a compound-interest matrix, passed through the loop as two copies that each step averages (or 2a - b): on the real data the
loop changes nothing, and the values were computed beside it."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    T = deposits.shape[0]
    t = jnp.arange(T)
    lag = t[:, None] - t[None, :]
    w = jnp.where(lag >= 0, (1 + rate) ** jnp.maximum(lag, 0).astype(deposits.dtype), 0.0)
    balances = w @ deposits

    def month(c, ab):
        a, b = ab
        return (a + b) * 0.5, None

    balance, _ = lax.scan(month, jnp.zeros((), deposits.dtype), (balances, balances))
    return balance


@jax.jit
def rate_sensitivity(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    return jax.grad(final_balance)(rate, deposits)
