"""Sharded weights: gather them to use them, reduce-scatter their gradients.

When the weights are too big to copy onto every device, split them too
(fully sharded data parallelism): device i keeps its rows of w and its rows
of the batch. In a shard_map step each device first rebuilds the whole w
with `lax.all_gather(w_block, "data", tiled=True)`, takes the gradient on its
batch rows, and then needs only its own rows of the summed gradient:
`lax.psum_scatter(g, "data", scatter_dimension=0, tiled=True)` adds the
devices' gradients and leaves each device just its block (in the program it
shows up as reduce_scatter). A psum would hand every device the whole sum,
n times the memory and traffic, only for most of it to be thrown away.
Divide by the number of devices for the mean.
Docs: https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): `train_step(w, x, y, mesh)` takes w (d, k), x (N, d) and
y (N, k), all split by rows over mesh axis "data". Take one SGD step
(learning rate LR) on `loss` with the gradient of the whole batch, and
return the new w split like w. Use jax.shard_map with lax.all_gather and
lax.psum_scatter. Keep `loss`, LR and the signatures.
"""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P

LR = 0.1


def loss(w: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((x @ w - y) ** 2)


def train_step(w: jax.Array, x: jax.Array, y: jax.Array, mesh: Mesh) -> jax.Array:
    raise NotImplementedError("TODO: in shard_map: all_gather w, grad on local rows, psum_scatter, update")
