"""Right, unusually: inside auto_axes the compiler picks how to lay out the transpose."""

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def symmetrize(a):
    return jax.sharding.auto_axes(lambda b: (b + b.T) / 2, out_sharding=P("data"))(a)
