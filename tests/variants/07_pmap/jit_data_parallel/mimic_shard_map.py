"""Values right, idea skipped: writes the per-device program by hand with shard_map instead of letting jit partition."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    rows, copies = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


def _per_device(params, x, y):
    grads = jax.grad(lambda p: lax.pmean(loss(p, x, y), "data"))(params)
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)


@jax.jit
def train_step(params, x, y):
    mesh = jax.typeof(x).sharding.mesh
    return jax.shard_map(_per_device, mesh=mesh, in_specs=(P(), P("data"), P("data")), out_specs=P())(params, x, y)
