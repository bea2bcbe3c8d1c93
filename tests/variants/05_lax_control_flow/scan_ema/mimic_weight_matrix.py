"""Values right, tool wrong: the averages from a hand-derived matrix of decay powers, with no scan."""

import jax
import jax.numpy as jnp


@jax.jit
def ema(xs, decay):
    n = xs.shape[0]
    t = jnp.arange(n)[:, None]
    k = jnp.arange(n)[None, :]
    lag = jnp.maximum(t - k, 0).astype(xs.dtype)
    weights = jnp.where(k == 0, decay ** lag, (1 - decay) * decay ** lag)
    weights = jnp.where(k <= t, weights, 0.0)
    smoothed = jnp.tensordot(weights, xs, axes=1)
    return smoothed[-1], smoothed
