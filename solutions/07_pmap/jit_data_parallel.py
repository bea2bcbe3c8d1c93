"""Reference solution for pmap-7: place the arrays, jit the whole-batch step, let XLA partition it."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params: dict, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params: dict, x: np.ndarray, y: np.ndarray, mesh: Mesh) -> tuple[dict, jax.Array, jax.Array]:
    rows, copies = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


@jax.jit
def train_step(params: dict, x: jax.Array, y: jax.Array) -> dict:
    grads = jax.grad(loss)(params, x, y)  # a global-view program: XLA adds the all-reduce
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)
