"""Right, unusually: per-device shapes from the shard_map equation's own mesh and in_specs, nested programs found with jax.extend."""

import jax
import jax.extend
from jax.sharding import NamedSharding


def added_by_grad(f, x):
    grad_names = [e.primitive.name for e in jax.make_jaxpr(jax.grad(f))(x).eqns]
    forward = {e.primitive.name for e in jax.make_jaxpr(f)(x).eqns}
    return {name for name in grad_names if name not in forward}


def vmap_shapes(f, xs):
    out = []
    for eqn in jax.make_jaxpr(jax.vmap(f))(xs).jaxpr.eqns:
        out.append((str(eqn.primitive), eqn.outvars[0].aval.shape))
    return out


def _shard_maps(jaxpr):
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "shard_map":
            yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _shard_maps(sub)


def per_device_view(g, *args):
    eqn = next(_shard_maps(jax.make_jaxpr(g)(*args).jaxpr))
    mesh = eqn.params["mesh"]
    shapes = [tuple(NamedSharding(mesh, spec).shard_shape(tuple(v.aval.shape)))
              for spec, v in zip(eqn.params["in_specs"], eqn.invars)]
    return shapes, [e.primitive.name for e in eqn.params["jaxpr"].eqns]
