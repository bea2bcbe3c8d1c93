"""Wrong: stop_gradient on the carried balance cuts the chain, so only the last month's
interest reaches the gradient."""

import jax
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    def month(balance, deposit):
        return lax.stop_gradient(balance) * (1 + rate) + deposit, None

    return lax.scan(month, 0.0 * rate, deposits)[0]


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
