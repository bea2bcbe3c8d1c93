"""Mimic: jitted and host-free, but reshards the whole batch onto every device first and splits the result by rows again at the end."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def standardize(x):
    rows = jax.typeof(x).sharding
    whole = jax.sharding.reshard(x, rows.update(spec=P()))
    out = (whole - jnp.mean(whole, axis=0)) / jnp.std(whole, axis=0)
    return jax.sharding.reshard(out, rows)
