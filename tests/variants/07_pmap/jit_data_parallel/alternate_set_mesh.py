"""Right, unusually: places with bare PartitionSpecs under jax.set_mesh; jits via functools.partial; builds the dict by hand."""

from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    with jax.set_mesh(mesh):
        return jax.device_put(params, P()), jax.device_put(x, P("data")), jax.device_put(y, P("data"))


@partial(jax.jit, donate_argnums=())
def train_step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return {name: params[name] - LR * grads[name] for name in params}
