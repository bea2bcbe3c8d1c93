"""Wrong: each step emits the carry it was given, so the history lags one step behind."""

import jax
from jax import lax


@jax.jit
def ema(xs, decay):
    def step(s, x):
        return decay * s + (1 - decay) * x, s

    return lax.scan(step, xs[0], xs)
