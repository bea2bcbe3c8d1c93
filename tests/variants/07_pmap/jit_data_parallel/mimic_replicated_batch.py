"""Values right, idea skipped: places the batch whole on every device, so each device computes all of it."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    copies = NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, copies), jax.device_put(y, copies)


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)
