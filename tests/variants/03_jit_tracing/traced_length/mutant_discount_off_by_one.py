"""Wrong: the discounts start at GAMMA**1, so even the first reward is discounted."""

from functools import partial

import jax
import jax.numpy as jnp

GAMMA = 0.9


@partial(jax.jit, static_argnums=1)
def n_step_return(rewards, n):
    return jnp.sum(rewards[:n] * GAMMA ** jnp.arange(1, n + 1))
