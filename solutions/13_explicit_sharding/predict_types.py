"""Reference solution for explicit-7: explicit shardings follow the dimensions through each operation, and are written in the type."""

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


# Your predictions, worked out:
TRANSPOSED = "float32[8,16@data]"  # the split moves with the rows, now the second dimension
DOUBLED = "float32[16@data,8]"  # elementwise: the operand's split
TIMES_W = "float32[16@data,4]"  # each device multiplies its rows by its copy of w
SUM_OVER_ROWS = "float32[8]"  # the split dimension is summed away: copies of the total
SUM_OVER_COLUMNS = "float32[16@data]"  # each row's sum stays with its row
FIRST_HALF = "float32[8@data,8]"  # 8 rows still divide over the devices: still split
GRAM_RAISES = True  # a.T @ a sums over the split rows on both sides: ambiguous
