"""Loop operands are pytrees of arrays, never Python iterators.

`lax.scan(f, init, xs)` slices every array leaf of the pytree `xs` along its
leading axis and hands the body one slice per step: give it `(values,
weights)` and the body receives `(values[t], weights[t])`. A Python iterator
(`zip`, `enumerate`, `map`, a generator) is no pytree of arrays: it has no
shape, and could be read only once anyway, so JAX rejects it ("... of type
<class 'zip'> is not a valid JAX type"). The same goes for the operands of
`lax.cond`, `lax.switch` and `lax.while_loop`, and for jit's arguments. Keep
arrays as arrays: a tuple of them replaces `zip`, and `jnp.arange(n)` scanned
alongside replaces `enumerate`.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html
      https://docs.jax.dev/en/latest/pytrees.html

Task (fix-it): both functions raise TypeError. Make each one a single rolled
lax.scan over its arrays (also under jax.jit). Keep names and signatures.
"""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    """out[t] = decay * out[t-1] + weights[t] * values[t], with out[-1] = 0; shape (T,)."""
    def step(total, pair):
        value, weight = pair
        total = decay * total + weight * value
        return total, total

    _, out = lax.scan(step, jnp.zeros((), values.dtype), zip(values, weights))
    return out


def discounted_return(rewards, gamma):
    """The sum over t of gamma ** t * rewards[t], a scalar."""
    def step(total, item):
        t, reward = item
        return total + gamma ** t * reward, None

    total, _ = lax.scan(step, jnp.zeros((), rewards.dtype), enumerate(rewards))
    return total
