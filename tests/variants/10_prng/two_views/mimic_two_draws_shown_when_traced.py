"""Values right, tool wrong: called, NumPy's generator seeded from the key's bits gives the noise,
on the host; traced (as a check reading its program traces it), it shows two jax.random draws from
two split keys instead, a program whose views are not the ones the call returns. It scored full
marks before the checks ran the program they read."""

import jax
import jax.numpy as jnp
import numpy as np


def _two_draws(key, x, sigma):
    key_a, key_b = jax.random.split(key)
    return x + sigma * jax.random.normal(key_a, x.shape), x + sigma * jax.random.normal(key_b, x.shape)


def _host_noise(key, x, sigma):
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)))
    a = rng.standard_normal(x.shape).astype(np.float32)
    b = rng.standard_normal(x.shape).astype(np.float32)
    return x + sigma * jnp.asarray(a), x + sigma * jnp.asarray(b)


def two_views(key, x, sigma=0.1):
    return (_two_draws if isinstance(key, jax.core.Tracer) else _host_noise)(key, x, sigma)
