"""Values right, transfers wrong: computes everything with jnp under jit, but first prints the column
means for a log, which copies them from the devices to the host (a CPU's transfer guard never sees it)."""

import jax
import jax.numpy as jnp


@jax.jit
def _standardize(x, mean):
    return (x - mean) / jnp.std(x, axis=0)


def standardize(x):
    mean = jax.jit(lambda v: jnp.mean(v, axis=0))(x)
    print("column means:", mean)
    return _standardize(x, mean)
