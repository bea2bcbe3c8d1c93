"""Right, unusually: lax.fori_loop with the loop index reading the arrays (a rolled loop too)."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def body(t, state):
        total, out = state
        total = decay * total + weights[t] * values[t]
        return total, out.at[t].set(total)

    _, out = lax.fori_loop(0, values.shape[0], body, (jnp.zeros((), values.dtype), jnp.zeros_like(values)))
    return out


def discounted_return(rewards, gamma):
    return lax.fori_loop(0, rewards.shape[0], lambda t, total: total + gamma ** t * rewards[t],
                         jnp.zeros((), rewards.dtype))
