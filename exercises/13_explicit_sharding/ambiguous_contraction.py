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
(no operand gathered whole). It raises instead. Keep the signature.
"""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x: jax.Array, w: jax.Array) -> jax.Array:
    return x @ w
