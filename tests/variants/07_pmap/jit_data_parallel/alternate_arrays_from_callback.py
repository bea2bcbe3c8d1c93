"""Right, unusually: builds each placed array from its per-device blocks with jax.make_array_from_callback; x's spec names its columns (None) and its row axis as a tuple of mesh axes."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def _put(value, sharding):
    return jax.make_array_from_callback(value.shape, sharding, lambda index: value[index])


def place(params, x, y, mesh):
    copies = NamedSharding(mesh, P())
    placed = {name: _put(jnp.asarray(leaf), copies) for name, leaf in params.items()}
    return placed, _put(x, NamedSharding(mesh, P(("data",), None))), _put(y, NamedSharding(mesh, P("data")))


def _step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return {name: params[name] - LR * grads[name] for name in params}


train_step = jax.jit(_step)
