"""Right, unusually: the partial products are reduce-scattered into a split result, then the small result is gathered to copies."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x, w):
    return jax.reshard(jnp.matmul(x, w, out_sharding=P("data")), P())
