"""Predict: a contraction over a split dimension, three ways.

When x's columns and w's rows, the dimension a matmul sums over, are split
over the same mesh axis, each device can multiply the blocks it holds: the
result is a whole-sized partial product per device, still to be summed
across devices. On Explicit axes `x @ w` raises, since the sum could end up
copied everywhere or split. `out_sharding=` decides: P() adds the partial
products into a copy on every device (an all-reduce), P("data") into a split.
Resharding the operands to copies first also runs, but gathers x and w whole
on every device (two all-gathers) and repeats the whole matmul on each.
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (predict): x is float32[8,16@data], w float32[16@data,4]. Without
running anything, write down whether PLAIN raises, the jax.typeof string of
COPIES' and SPLIT's results, and the set of HLO collectives in the compiled
COPIES and GATHERED. The checks run and compile them and, where you were
wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

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


# Your predictions: replace each ... with a literal (no running first!)
PLAIN_RAISES = ...  # True or False
TYPE_OF_COPIES = ...  # a string, as jax.typeof prints it (never f32), e.g. "float32[2,3@data]"
TYPE_OF_SPLIT = ...
# a set of the HLO's collective names (not jax.lax's psum...), e.g. {"all-to-all"}; set() for none:
COLLECTIVES_OF_COPIES = ...
COLLECTIVES_OF_GATHERED = ...
