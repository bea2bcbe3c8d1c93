"""Right, unusually: names the layout with a bare PartitionSpec, which the caller's jax.set_mesh resolves."""

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def symmetrize(a):
    return (a + jax.reshard(a.T, P("data", None))) / 2
