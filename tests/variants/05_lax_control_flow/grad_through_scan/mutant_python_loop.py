"""Wrong: a Python loop over the deposits differentiates fine but unrolls, forward and backward."""

import jax


@jax.jit
def final_balance(rate, deposits):
    balance = 0.0 * rate
    for t in range(deposits.shape[0]):
        balance = balance * (1 + rate) + deposits[t]
    return balance


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
