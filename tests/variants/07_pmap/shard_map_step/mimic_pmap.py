"""Values right, idea skipped: keeps legacy pmap (a stacked batch copied to every device, pmap's own mesh)."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(params, x, y, mesh):
    n = jax.device_count()

    def step(params, x, y):
        grads = lax.pmean(jax.grad(loss)(params, x, y), "i")
        return jax.tree.map(lambda p, g: p - LR * g, params, grads)

    # pmap refuses arrays split over another mesh's Explicit axis: copy them first, then stack.
    copies = NamedSharding(mesh, P())
    xs = jax.reshard(x, copies).reshape(n, -1, x.shape[1])
    ys = jax.reshard(y, copies).reshape(n, -1)
    stacked = jax.pmap(step, axis_name="i", in_axes=(None, 0, 0))(params, xs, ys)
    return jax.tree.map(lambda leaf: leaf[0], stacked)
