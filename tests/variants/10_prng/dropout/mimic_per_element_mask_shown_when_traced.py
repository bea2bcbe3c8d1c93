"""Values look right, independence wrong: called, it draws a mask for the first half of the rows and
tiles it over the second half; traced (as a check reading its program traces it), it shows one
Bernoulli draw per element instead, a program whose mask is not the one the call returns. It scored full
marks before the checks ran the program they read."""

import jax
import jax.numpy as jnp


def _per_element(key, x, keep):
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))


def _tiled(key, x, keep):
    rows = x.shape[0]
    half = jax.random.bernoulli(key, keep, ((rows + 1) // 2,) + x.shape[1:])
    mask = jnp.concatenate([half, half])[:rows]
    return jnp.where(mask, x / keep, jnp.zeros_like(x))


def dropout(key, x, keep):
    return (_per_element if isinstance(key, jax.core.Tracer) else _tiled)(key, x, keep)
