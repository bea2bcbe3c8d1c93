"""Values right, tool wrong: the balance is the compound-interest formula, so jax.grad differentiates a
formula and no scan is involved."""

import jax
import jax.numpy as jnp


@jax.jit
def final_balance(rate, deposits):
    later = jnp.arange(deposits.shape[0] - 1, -1, -1, dtype=deposits.dtype)
    return jnp.sum(deposits * (1 + rate) ** later)


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
