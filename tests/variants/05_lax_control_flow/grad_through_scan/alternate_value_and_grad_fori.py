"""Right, unusually: a fori_loop with static bounds (lowered to scan) and jax.value_and_grad."""

import jax
from jax import lax


def _balance(rate, deposits):
    def month(t, balance):
        return balance * (1 + rate) + deposits[t]

    return lax.fori_loop(0, deposits.shape[0], month, 0.0 * rate)


final_balance = jax.jit(_balance)


@jax.jit
def rate_sensitivity(rate, deposits):
    _, slope = jax.value_and_grad(_balance)(rate, deposits)
    return slope
