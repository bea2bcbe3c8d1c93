"""Values right, idea skipped: jax.jit(partial(...)) built on every call bakes n in, but is a new function each time, so it always recompiles."""

from functools import partial

import jax
import jax.numpy as jnp

GAMMA = 0.9


def _n_step_return(rewards, n):
    return jnp.sum(rewards[:n] * GAMMA ** jnp.arange(n))


def n_step_return(rewards, n):
    return jax.jit(partial(_n_step_return, n=n))(rewards)
