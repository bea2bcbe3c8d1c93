"""Mimic: the jitted program keeps the rows layout; a wrapper device_puts the result to columns after it ran (and forwards .lower)."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def center_columns(x):
    return x - jnp.mean(x, axis=0)


def make_centering(mesh):
    jitted = jax.jit(center_columns, in_shardings=NamedSharding(mesh, P("data", None)))

    def centered(x):
        return jax.device_put(jitted(x), NamedSharding(mesh, P(None, "data")))

    centered.lower = jitted.lower
    return centered
