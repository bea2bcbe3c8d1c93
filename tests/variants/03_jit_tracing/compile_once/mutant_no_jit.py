"""Wrong: right values, but run op by op (eagerly): nothing is compiled as one program."""

import jax.numpy as jnp

EPS = 1e-6


def rms_norm(x):
    return x / jnp.sqrt(jnp.mean(x ** 2, axis=-1, keepdims=True) + EPS)
