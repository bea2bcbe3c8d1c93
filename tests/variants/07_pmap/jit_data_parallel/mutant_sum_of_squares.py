"""Wrong: differentiates the sum of squared errors, not their mean: a step N times too large."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    rows, copies = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"] + p["b"] - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)
