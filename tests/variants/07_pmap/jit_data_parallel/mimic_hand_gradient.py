"""Mimic: jitted, partitioned step, but with a gradient derived by hand instead of jax.grad(loss)."""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    rows = NamedSharding(mesh, P("data"))
    return jax.device_put(params, NamedSharding(mesh, P())), jax.device_put(x, rows), jax.device_put(y, rows)


@jax.jit
def train_step(params, x, y):
    r = x @ params["w"] + params["b"] - y
    return {"w": params["w"] - LR * 2.0 * jnp.mean(r[:, None] * x, axis=0), "b": params["b"] - LR * 2.0 * jnp.mean(r)}
