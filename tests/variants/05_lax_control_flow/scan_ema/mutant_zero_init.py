"""Wrong: the carry starts at 0, so the average is biased towards 0 early on."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def ema(xs, decay):
    def step(s, x):
        s = decay * s + (1 - decay) * x
        return s, s

    return lax.scan(step, jnp.zeros_like(xs[0]), xs)
