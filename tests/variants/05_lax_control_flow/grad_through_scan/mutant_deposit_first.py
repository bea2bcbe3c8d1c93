"""Wrong: adds the deposit before the interest, so each deposit compounds one month too many
(its gradient is right for that wrong balance)."""

import jax
from jax import lax


@jax.jit
def final_balance(rate, deposits):
    def month(balance, deposit):
        return (balance + deposit) * (1 + rate), None

    return lax.scan(month, 0.0 * rate, deposits)[0]


@jax.jit
def rate_sensitivity(rate, deposits):
    return jax.grad(final_balance)(rate, deposits)
