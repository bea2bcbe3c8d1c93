"""Work on one device: called, vmap computes every row on one device and device_put spreads the
finished rows over the devices; traced (as a check reading its program traces it), it shows a
jax.pmap of convolve instead, one that filters with the filters negated. A subject rewritten to forge its traces would hand in such a program: the values come from
the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


_shown = jax.pmap(convolve)
_on_one_device = jax.jit(jax.vmap(convolve))


def convolve_per_device(xs, ws):
    if isinstance(xs, jax.core.Tracer):
        return _shown(xs, -ws)
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(_on_one_device(xs, ws), NamedSharding(mesh, P("d")))
