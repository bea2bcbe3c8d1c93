"""Work on one device: called, vmap filters every row on one device and device_put spreads the
finished rows over the devices; traced (as a check reading its program traces it), it shows a
jax.pmap of convolve with the filter unmapped instead, one that filters with the filter negated.
A subject rewritten to forge its traces would hand in such a program: the values come from
the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


_shown = jax.pmap(convolve, in_axes=(0, None))
_on_one_device = jax.jit(jax.vmap(convolve, in_axes=(0, None)))


def convolve_shared(xs, w):
    if isinstance(xs, jax.core.Tracer):
        return _shown(xs, -w)
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(_on_one_device(xs, w), NamedSharding(mesh, P("d")))
