"""A contraction over a split dimension: say where the result goes.

When both operands of a matmul are split along the dimension it sums over,
each device can multiply the blocks it holds, but the partial products must
then be added across devices, and that sum could end up copied everywhere or
split. In explicit mode JAX will not choose for you: `x @ w` raises a
ShardingTypeError ("ambiguous how the output should be sharded").
`jnp.matmul`, `jnp.dot`, `jnp.einsum` and `lax.dot_general` take
`out_sharding=`: name the layout you want and XLA adds the collective that
produces it from the partial products (an all-reduce for copies; for a split,
a reduce-scatter where the backend has one, while the CPU all-reduces and
keeps each device's slice). Resharding both operands to copies first also
runs, but gathers them whole on every device and repeats the whole multiply.
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (fix-it): `project(x, w)` multiplies features `x` (batch, d) by weights
`w` (d, k), both split along d over mesh axis "data"; the caller runs it under
`jax.set_mesh` with that mesh. Return the (batch, k) product replicated on
every device, with each device multiplying only the blocks it already holds
(no operand gathered whole) and the partial products summed across devices
(an all-reduce), not each one gathered onto every device. It raises instead.
Keep the signature.
"""

# Diagram: partial products
#   each device's partial product is whole-sized; summed, it comes out whole on each device or split
#
#   partial products                       out_sharding=P()
#   device 0 | x0 @ w0 |                   device 0 | the sum |
#   device 1 | x1 @ w1 |  --all-reduce-->  device 1 | the sum |
#   device 2 | x2 @ w2 |                   device 2 | the sum |
#   device 3 | x3 @ w3 |                   device 3 | the sum |
#
#   partial products                           out_sharding=P('data')
#   device 0 | x0 @ w0 |                       rows 0:1 | 0 |
#   device 1 | x1 @ w1 |  --reduce-scatter-->  rows 1:2 | 1 |
#   device 2 | x2 @ w2 |                       rows 2:3 | 2 |
#   device 3 | x3 @ w3 |                       rows 3:4 | 3 |

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x: jax.Array, w: jax.Array) -> jax.Array:
    return x @ w
