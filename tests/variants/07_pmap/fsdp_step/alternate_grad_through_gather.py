"""Right, unusually: differentiates through the all_gather; its transpose is exactly the psum_scatter."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

LR = 0.1


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(w, x, y, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
    def per_device(w_block, x, y):
        n = lax.axis_size("data")
        grad = jax.grad(lambda wb: loss(lax.all_gather(wb, "data", tiled=True), x, y) / n)(w_block)
        return w_block - LR * grad

    return jax.jit(per_device)(w, x, y)
