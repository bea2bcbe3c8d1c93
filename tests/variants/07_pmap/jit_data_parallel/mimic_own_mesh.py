"""Values right, mesh wrong: place() ignores the mesh it is given and builds its own 8-device mesh (breaks on any other device count)."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    own = jax.make_mesh((8,), ("data",))
    rows, copies = NamedSharding(own, P("data")), NamedSharding(own, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)
