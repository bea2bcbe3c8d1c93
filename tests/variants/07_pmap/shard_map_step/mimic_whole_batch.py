"""Values right, idea skipped: every device gets the whole batch (in_specs P()), so none works on its share."""

from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(params, x, y, mesh):
    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P(), P()), out_specs=P())
    def per_device(params, x, y):
        grads = jax.grad(loss)(params, x, y)
        return jax.tree.map(lambda p, g: p - LR * g, params, grads)

    copies = NamedSharding(mesh, P())
    return per_device(params, jax.device_put(x, copies), jax.device_put(y, copies))
