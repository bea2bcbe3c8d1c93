"""Values right, idea skipped: called, NumPy computes damped_wave on the host and the result is
copied back into a jax.Array; traced (as a check reading its program traces it), it shows a jitted
jax.numpy program that leaves out the damping. A subject rewritten to forge its traces would hand in
such a program."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _for_show(x):
    return jnp.sin(3 * x)


def damped_wave(x):
    if isinstance(x, jax.core.Tracer):
        return _for_show(x)
    x = np.asarray(x)
    return jnp.asarray(np.sin(3 * x) * np.exp(-x ** 2))


@jax.jit
def as_matrix(x):
    return x.reshape(np.prod(x.shape[:2]), -1)
