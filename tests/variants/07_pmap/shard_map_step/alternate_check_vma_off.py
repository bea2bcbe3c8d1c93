"""Right, unusually: check_vma=False restores pmap's semantics (local gradients), so pmean of them is correct."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(params, x, y, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("data"), P("data")), out_specs=P(), check_vma=False)
    def per_device(params, x, y):
        grads = lax.pmean(jax.grad(loss)(params, x, y), "data")
        return jax.tree.map(lambda p, g: p - LR * g, params, grads)

    return per_device(params, x, y)
