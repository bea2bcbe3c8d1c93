"""Predict: the sharding each operation's result has, in its type.

On Explicit mesh axes every result's sharding is worked out at trace time
from its operands' and written into its type: `float32[16@data,8]` has its 16
rows split over "data". Elementwise ops keep their operands' split. A
transpose moves the split with its dimension. A reduction over a split
dimension adds the devices' partial results, and the summed dimension (and
its split) is gone; one over a whole dimension keeps the other's split.
Slicing keeps the split where the blocks still divide evenly. A matmul that
would sum over a split dimension on both sides is ambiguous, and JAX raises
rather than guess (a ShardingTypeError).
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (predict): `a` is float32[16@data,8] and `w` float32[8,4] (copies on
every device), under jax.set_mesh. Without running anything, write down the
jax.typeof string of each result below, and whether GRAM raises. The checks
run them and, where you were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

RESULTS = {
    "TRANSPOSED": lambda a, w: a.T,
    "DOUBLED": lambda a, w: 2 * a,
    "TIMES_W": lambda a, w: a @ w,
    "SUM_OVER_ROWS": lambda a, w: jnp.sum(a, axis=0),
    "SUM_OVER_COLUMNS": lambda a, w: jnp.sum(a, axis=1),
    "FIRST_HALF": lambda a, w: a[:8],
}
GRAM = lambda a, w: a.T @ a


def inputs():
    """a and w as described, on a 1-D Explicit mesh over every device."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    a = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(mesh, P("data")))
    w = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P()))
    return mesh, a, w


# Your predictions: replace each ... with a string, as jax.typeof prints it (never f32), e.g.
# "float32[2,3@data]" (no running first!)
TRANSPOSED = ...
DOUBLED = ...
TIMES_W = ...
SUM_OVER_ROWS = ...
SUM_OVER_COLUMNS = ...
FIRST_HALF = ...
GRAM_RAISES = ...  # True or False
