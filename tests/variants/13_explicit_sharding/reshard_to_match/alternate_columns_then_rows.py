"""Right, unusually: adds in the column layout, then reshards the sum back to rows: two all-to-alls, no gather."""

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def symmetrize(a):
    total = jax.reshard(a, P(None, "data")) + a.T
    return jax.reshard(total / 2, P("data", None))
