"""Values and layout right, idea skipped: gathers both operands whole on every device, then multiplies."""

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x, w):
    return jax.reshard(x, P()) @ jax.reshard(w, P())
