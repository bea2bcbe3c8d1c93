"""A 2-D mesh: data parallelism on one axis, model parallelism on the other.

`jax.make_mesh((4, 2), ("data", "model"))` arranges 8 devices in a grid of
4 rows ("data") by 2 columns ("model"). A PartitionSpec names, per array
dimension, the mesh axis it is split over; a mesh axis it does not name means
"copy along it". So a batch with `P("data", None)` is split by rows over
"data" and copied across "model", and a weight matrix with `P(None, "model")`
is split by columns over "model" and copied across "data". Their product
comes out split both ways, with no device ever holding the whole of it.
Docs: https://docs.jax.dev/en/latest/sharded-computation.html

Task (fill-in): `make_mesh_2d()` returns a mesh of shape (device count / 2, 2)
with axes ("data", "model"). `shard_batch(batch, mesh)` splits rows over
"data"; `shard_weights(w, mesh)` splits columns over "model". Keep the names.
"""

# Diagram: rows and columns
#   on a (2, 2) mesh; each cell is a block, listing the devices holding it
#
#   batch P('data', None)          weights P(None, 'model')          product P('data', 'model')
#   rows 0:2 | 0,1 |                          0:2   2:4                         0:2   2:4
#   rows 2:4 | 2,3 |       --@-->  rows 0:4 | 0,2 | 1,3 |    --=-->  rows 0:2 |  0  |  1  |
#                                                                    rows 2:4 |  2  |  3  |

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def make_mesh_2d() -> Mesh:
    raise NotImplementedError("TODO: a (device_count // 2, 2) mesh with axes ('data', 'model')")


def shard_batch(batch: np.ndarray, mesh: Mesh) -> jax.Array:
    raise NotImplementedError("TODO: rows over 'data', copied across 'model'")


def shard_weights(w: np.ndarray, mesh: Mesh) -> jax.Array:
    raise NotImplementedError("TODO: columns over 'model', copied across 'data'")
