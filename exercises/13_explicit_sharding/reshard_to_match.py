"""Shardings flow through jit: operands split differently need jax.reshard.

In explicit mode every operation works out its result's sharding from its
operands' at trace time, and you can read it with jax.typeof. Elementwise
ops keep the splits of their operands, so those must agree: the transpose of
a row-split `a` (`float32[8@data,8]`) is column-split (`float32[8,8@data]`),
and `a + a.T` would need both dimensions split over the same mesh axis. JAX
raises a ShardingTypeError rather than guess where to move data.
`jax.reshard(y, sharding)` puts y into the layout you name (a NamedSharding,
`jax.typeof(a).sharding`, or a bare PartitionSpec under jax.set_mesh); inside
jit it compiles to one all-to-all that re-splits y, and nothing is ever
gathered whole on one device.
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (fix-it): `symmetrize(a)` (jitted) returns (a + a.T) / 2 for a square
`a` whose rows are split over mesh axis "data"; the result must be split
like `a`. It raises a ShardingTypeError. Fix it without gathering the whole
matrix onto any device. Keep the signature.
"""

# Diagram: reshard
#   a.T is split by columns; jax.reshard moves it back to rows, in one all-to-all
#
#   a: f32[4@data,4]           a.T: f32[4,4@data]                                   reshard(a.T)
#   rows 0:1 | 0 |                        0:1   1:2   2:3   3:4                     rows 0:1 | 0 |
#   rows 1:2 | 1 |    --.T-->  rows 0:4 |  0  |  1  |  2  |  3  |  --all-to-all-->  rows 1:2 | 1 |
#   rows 2:3 | 2 |                                                                  rows 2:3 | 2 |
#   rows 3:4 | 3 |                                                                  rows 3:4 | 3 |

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def symmetrize(a: jax.Array) -> jax.Array:
    return (a + a.T) / 2
