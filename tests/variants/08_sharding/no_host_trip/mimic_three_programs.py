"""Wrong: three jitted programs (mean, std, the standardizing) where the task asks for one."""

import jax
import jax.numpy as jnp


@jax.jit
def _mean(x):
    return jnp.mean(x, axis=0)


@jax.jit
def _std(x):
    return jnp.std(x, axis=0)


@jax.jit
def _scale(x, mean, std):
    return (x - mean) / std


def standardize(x):
    return _scale(x, _mean(x), _std(x))
