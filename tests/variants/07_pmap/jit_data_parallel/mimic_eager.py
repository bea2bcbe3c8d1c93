"""Values right, idea skipped: train_step is not jitted: it runs op by op, never one partitioned program."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    rows, copies = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


def train_step(params, x, y):
    residual = x @ params["w"] + params["b"] - y
    grads = {"w": 2.0 * jnp.mean(residual[:, None] * x, axis=0), "b": 2.0 * jnp.mean(residual)}
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)
