"""Right, unusually: brings x down to bfloat16 first, so the arithmetic never leaves bfloat16."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnames="average")
def ema_update(average, x, decay):
    x = x.astype(jnp.bfloat16)
    return average + (1 - decay) * (x - average)
