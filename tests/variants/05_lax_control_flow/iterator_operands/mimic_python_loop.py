"""Wrong: right numbers from Python loops over the elements, unrolled into one traced step per element."""

import jax.numpy as jnp


def weighted_ema(values, weights, decay):
    total, out = jnp.zeros((), values.dtype), []
    for t in range(values.shape[0]):
        total = decay * total + weights[t] * values[t]
        out.append(total)
    return jnp.stack(out)


def discounted_return(rewards, gamma):
    total = jnp.zeros((), rewards.dtype)
    for t in range(rewards.shape[0]):
        total = total + gamma ** t * rewards[t]
    return total
