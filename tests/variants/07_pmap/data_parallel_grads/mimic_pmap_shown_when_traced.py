"""Not data parallel: called, one device computes the whole batch's gradient and device_put copies
it, one row per device; traced (as a check reading its program traces it), it shows each device's
shard gradient averaged with lax.pmean under jax.pmap instead, with the labels negated. A subject rewritten to forge its traces would hand in such a program: the values come from
the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


@jax.jit
def _whole_batch(params, xs, ys):
    grads = jax.grad(loss)(params, xs.reshape(-1, xs.shape[-1]), ys.reshape(-1))
    return jax.tree.map(lambda g: jnp.broadcast_to(g, (xs.shape[0], *g.shape)), grads)


_shown = jax.pmap(lambda p, x, y: lax.pmean(jax.grad(loss)(p, x, -y), "d"), axis_name="d", in_axes=(None, 0, 0))


def parallel_grads(params, xs, ys):
    if isinstance(xs, jax.core.Tracer):
        return _shown(params, xs, ys)
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(_whole_batch(params, xs, ys), NamedSharding(mesh, P("d")))
