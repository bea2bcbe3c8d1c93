"""Computed, not predicted: a comprehension over a compiled program's HLO at import."""

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

_mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Explicit,))
with jax.set_mesh(_mesh):
    _x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(_mesh, P(None, "data")))
    _w = jax.device_put(np.ones((16, 4), np.float32), NamedSharding(_mesh, P("data", None)))
    _text = jax.jit(lambda x, w: jax.numpy.matmul(x, w, out_sharding=P())).lower(_x, _w).compile().as_text()
PLAIN_RAISES = True
TYPE_OF_COPIES = "float32[8,4]"
TYPE_OF_SPLIT = "float32[8@data,4]"
COLLECTIVES_OF_COPIES = {name for name in ("all-reduce", "all-gather", "all-to-all") if name in _text}
COLLECTIVES_OF_GATHERED = {"all-gather"}
