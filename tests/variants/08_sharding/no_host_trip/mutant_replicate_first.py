"""Wrong: copies the whole batch to every device before standardizing, so the result is no longer split by rows."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@jax.jit
def _standardize(x):
    return (x - jnp.mean(x, axis=0)) / jnp.std(x, axis=0)


def standardize(x):
    return _standardize(jax.device_put(x, NamedSharding(x.sharding.mesh, P())))
