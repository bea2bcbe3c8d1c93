"""Wrong: a lax.while_loop computes the balance, but reverse mode cannot differentiate it."""

import jax
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    def month(state):
        t, balance = state
        return t + 1, balance * (1 + rate) + deposits[t]

    _, balance = lax.while_loop(lambda s: s[0] < deposits.shape[0], month, (0, 0.0 * rate))
    return balance


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
