"""Work on one device: called, two vmaps compute every example on one device and device_put spreads
the results over the devices; traced (as a check reading its program traces it), it shows jax.pmap
of a vmap of affine instead, one that adds c negated. A subject rewritten to forge its traces would hand in such a program: the values come from
the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def affine(a, b, c):
    return a @ b + c


_shown = jax.pmap(jax.vmap(affine))
_on_one_device = jax.jit(jax.vmap(jax.vmap(affine)))


def affine_everywhere(a, b, c):
    if isinstance(a, jax.core.Tracer):
        return _shown(a, b, -c)
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    return jax.device_put(_on_one_device(a, b, c), NamedSharding(mesh, P("d")))
