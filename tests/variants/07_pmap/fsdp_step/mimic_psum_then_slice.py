"""Values right, idea skipped: psums the whole gradient onto every device, then slices out its own rows."""

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
        w_full = lax.all_gather(w_block, "data", tiled=True)
        grad = lax.pmean(jax.grad(loss)(w_full, x, y), "data")
        rows = w_block.shape[0]
        mine = lax.dynamic_slice_in_dim(grad, lax.axis_index("data") * rows, rows)
        return w_block - LR * mine

    return per_device(w, x, y)
