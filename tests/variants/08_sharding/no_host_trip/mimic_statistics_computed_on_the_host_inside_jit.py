"""Values right, idea skipped: the column statistics computed inside the jitted program, but under
compute_on("device_host"): no callback and no gather, yet the values go to host memory and back in the
middle of the program (on an accelerator; on CPU the host is the device)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.compute_on import compute_on


@compute_on("device_host")
@jax.jit
def _host_stats(x):
    return jnp.mean(x, axis=0), jnp.std(x, axis=0)


@jax.jit
def standardize(x: jax.Array) -> jax.Array:
    mean, std = _host_stats(x)
    return (x - mean) / std
