"""Reference solution for explicit-8: partial products are summed by the collective the output sharding asks for."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

PLAIN = lambda x, w: x @ w
COPIES = lambda x, w: jnp.matmul(x, w, out_sharding=P())
SPLIT = lambda x, w: jnp.matmul(x, w, out_sharding=P("data"))
GATHERED = lambda x, w: jax.reshard(x, P()) @ jax.reshard(w, P())


def inputs():
    """x and w as described, on a 1-D Explicit mesh over every device."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P(None, "data")))
    w = jax.device_put(np.ones((16, 4), np.float32), NamedSharding(mesh, P("data", None)))
    return mesh, x, w


# Your predictions, worked out:
PLAIN_RAISES = True  # the sum over the split dimension could be copied or split: JAX asks
TYPE_OF_COPIES = "float32[8,4]"  # P(): a copy on every device
TYPE_OF_SPLIT = "float32[8@data,4]"  # P("data"): the rows of the sum split
COLLECTIVES_OF_COPIES = {"all-reduce"}  # the partial products are added: one all-reduce
COLLECTIVES_OF_GATHERED = {"all-gather"}  # x and w are gathered whole first; no sum across devices after
