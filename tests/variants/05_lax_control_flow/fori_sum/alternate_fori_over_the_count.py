"""Right, unusually: a fori_loop over the count, 0 to upper - lower (no trip when upper <= lower), each
trip adding lower + j."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_range(lower, upper):
    return lax.fori_loop(0, upper - lower, lambda j, t: t + lower + j, jnp.int32(0))
