"""Reference solution for sharding-8: the collective follows from what a device needs but does not hold."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def rows_of(mesh):
    """x, split by rows over the mesh's 'data' axis."""
    return jax.device_put(np.arange(16 * 8, dtype=np.float32).reshape(16, 8), NamedSharding(mesh, P("data")))


def programs(mesh):
    return {
        "SUM_OVER_ROWS": jax.jit(lambda x: jnp.sum(x, axis=0)),
        "SUM_OVER_COLUMNS": jax.jit(lambda x: jnp.sum(x, axis=1)),
        "ROLL_ROWS": jax.jit(lambda x: jnp.roll(x, 1, axis=0)),
        "SCALE": jax.jit(lambda x: 2 * x),
        "TO_COLUMNS": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P(None, "data"))),
        "TO_COPIES": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P())),
    }


def compiled_text(name):
    """The HLO of one program (run this after predicting, to see for yourself)."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
    return programs(mesh)[name].lower(rows_of(mesh)).compile().as_text()


# Your predictions, worked out:
SUM_OVER_ROWS = "all-reduce"  # each device sums its rows; the partial sums are added across devices
SUM_OVER_COLUMNS = None  # each row is whole on one device: its sum needs nobody else
ROLL_ROWS = "collective-permute"  # each device sends its last row to the next device
SCALE = None  # elementwise: every device scales its own block
TO_COLUMNS = "all-to-all"  # every device sends a piece of its rows to every other device
TO_COPIES = "all-gather"  # every device collects every block
