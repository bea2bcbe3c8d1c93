"""Right, unusually: jit applied by call rather than decorator, and lax.rsqrt instead of 1/sqrt."""

import jax
import jax.numpy as jnp
from jax import lax

EPS = 1e-6


def _rms_norm(x):
    return x * lax.rsqrt(jnp.mean(jnp.square(x), axis=-1, keepdims=True) + EPS)


rms_norm = jax.jit(_rms_norm)
